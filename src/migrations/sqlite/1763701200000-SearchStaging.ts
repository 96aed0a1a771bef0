import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * FTS5 writes its pending terms to disk as a new segment whenever a statement inside the
 * transaction opens a statement savepoint (any multi-row write that may abort does), i.e. after
 * nearly every indexed asset of a write batch, and then keeps merging those one-asset segments.
 * So the trigger of `search_input` now stages an asset's full-text rows in `search_staged`, and
 * the write batch moves them all into `search_words` and `search_trigrams` with one INSERT into
 * the view `search_staged_flush` just before it commits (Database.beforeCommit): one segment per
 * table and batch. The staged rows never outlive their transaction.
 */
export class SearchStaging1763701200000 implements MigrationInterface {
    name = 'SearchStaging1763701200000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "search_staged" ("doc_id" integer PRIMARY KEY NOT NULL, "words_name" text, "words_annotations" text,
            "words_tags" text, "words_websites" text, "words_content" text, "trigram_name" text, "trigram_head" text)`);
        await queryRunner.query(`CREATE VIEW "search_staged_flush" AS SELECT NULL AS go WHERE 0`);
        await queryRunner.query(`CREATE TRIGGER "search_staged_flush_write" INSTEAD OF INSERT ON "search_staged_flush" BEGIN
            INSERT INTO search_words (rowid, name, annotations, tags, websites, content)
              SELECT doc_id, words_name, words_annotations, words_tags, words_websites, words_content FROM search_staged ORDER BY doc_id;
            INSERT INTO search_trigrams (rowid, name, head)
              SELECT doc_id, trigram_name, trigram_head FROM search_staged ORDER BY doc_id;
            DELETE FROM search_staged;
        END`);
        await queryRunner.query(`DROP TRIGGER "search_input_write"`);
        await queryRunner.query(this.inputTrigger(`INSERT OR REPLACE INTO search_staged (doc_id, words_name, words_annotations, words_tags, words_websites, words_content, trigram_name, trigram_head)
              SELECT doc_id, NEW.words_name, NEW.words_annotations, NEW.words_tags, NEW.words_websites, NEW.words_content, NEW.trigram_name, NEW.trigram_head
              FROM search_documents WHERE asset_id = NEW.asset_id;`));
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER "search_input_write"`);
        await queryRunner.query(this.inputTrigger(`INSERT INTO search_words (rowid, name, annotations, tags, websites, content)
              SELECT doc_id, NEW.words_name, NEW.words_annotations, NEW.words_tags, NEW.words_websites, NEW.words_content
              FROM search_documents WHERE asset_id = NEW.asset_id;
            INSERT INTO search_trigrams (rowid, name, head)
              SELECT doc_id, NEW.trigram_name, NEW.trigram_head FROM search_documents WHERE asset_id = NEW.asset_id;`));
        await queryRunner.query(`DROP TRIGGER "search_staged_flush_write"`);
        await queryRunner.query(`DROP VIEW "search_staged_flush"`);
        await queryRunner.query(`DROP TABLE "search_staged"`);
    }

    /** The trigger of SearchWriteStatement1763701100000 with `fullText` writing the full-text rows. */
    private inputTrigger(fullText: string): string {
        return `CREATE TRIGGER "search_input_write" INSTEAD OF INSERT ON "search_input" BEGIN
            DELETE FROM search_words WHERE rowid = (SELECT doc_id FROM search_documents WHERE asset_id = NEW.asset_id);
            DELETE FROM search_trigrams WHERE rowid = (SELECT doc_id FROM search_documents WHERE asset_id = NEW.asset_id);
            DELETE FROM search_tags WHERE asset_id = NEW.asset_id;
            INSERT INTO search_documents (asset_id, pseudo, name, annotations, content, tags, websites, specifics, created_at, updated_at)
              VALUES (NEW.asset_id, NEW.pseudo, NEW.name, NEW.annotations, NEW.content, NEW.tags, NEW.websites, NEW.specifics, NEW.created_at, NEW.updated_at)
              ON CONFLICT (asset_id) DO UPDATE SET pseudo = excluded.pseudo, name = excluded.name, annotations = excluded.annotations,
                content = excluded.content, tags = excluded.tags, websites = excluded.websites, specifics = excluded.specifics,
                created_at = excluded.created_at, updated_at = excluded.updated_at;
            ${fullText}
            INSERT OR IGNORE INTO search_tags (asset_id, tag, pseudo, updated_at)
              SELECT NEW.asset_id, value, NEW.pseudo, NEW.updated_at FROM json_each(NEW.tag_list);
            INSERT OR IGNORE INTO search_vocab (term, rev, len)
              SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.vocabulary);
        END`;
    }
}
