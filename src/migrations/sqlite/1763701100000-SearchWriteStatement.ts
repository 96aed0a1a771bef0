import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Writing one asset into the index takes five statements (document, words, trigrams, tags,
 * vocabulary) and node-sqlite3 makes each a round trip between the event loop and its thread
 * pool, which is what limits creates under load. An INSERT into the view `search_input` runs
 * them all in one statement: its INSTEAD OF trigger replaces whatever the asset had in the index
 * (deleting nothing for a new asset) and writes the new rows. `tag_list` is a JSON array of
 * tags, `vocabulary` a JSON array of [term, reversed term, length].
 */
export class SearchWriteStatement1763701100000 implements MigrationInterface {
    name = 'SearchWriteStatement1763701100000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE VIEW "search_input" AS SELECT
            NULL AS asset_id, NULL AS pseudo, NULL AS name, NULL AS annotations, NULL AS content, NULL AS tags, NULL AS websites,
            NULL AS specifics, NULL AS created_at, NULL AS updated_at, NULL AS words_name, NULL AS words_annotations, NULL AS words_tags,
            NULL AS words_websites, NULL AS words_content, NULL AS trigram_name, NULL AS trigram_head, NULL AS tag_list, NULL AS vocabulary
            WHERE 0`);
        await queryRunner.query(`CREATE TRIGGER "search_input_write" INSTEAD OF INSERT ON "search_input" BEGIN
            DELETE FROM search_words WHERE rowid = (SELECT doc_id FROM search_documents WHERE asset_id = NEW.asset_id);
            DELETE FROM search_trigrams WHERE rowid = (SELECT doc_id FROM search_documents WHERE asset_id = NEW.asset_id);
            DELETE FROM search_tags WHERE asset_id = NEW.asset_id;
            INSERT INTO search_documents (asset_id, pseudo, name, annotations, content, tags, websites, specifics, created_at, updated_at)
              VALUES (NEW.asset_id, NEW.pseudo, NEW.name, NEW.annotations, NEW.content, NEW.tags, NEW.websites, NEW.specifics, NEW.created_at, NEW.updated_at)
              ON CONFLICT (asset_id) DO UPDATE SET pseudo = excluded.pseudo, name = excluded.name, annotations = excluded.annotations,
                content = excluded.content, tags = excluded.tags, websites = excluded.websites, specifics = excluded.specifics,
                created_at = excluded.created_at, updated_at = excluded.updated_at;
            INSERT INTO search_words (rowid, name, annotations, tags, websites, content)
              SELECT doc_id, NEW.words_name, NEW.words_annotations, NEW.words_tags, NEW.words_websites, NEW.words_content
              FROM search_documents WHERE asset_id = NEW.asset_id;
            INSERT INTO search_trigrams (rowid, name, head)
              SELECT doc_id, NEW.trigram_name, NEW.trigram_head FROM search_documents WHERE asset_id = NEW.asset_id;
            INSERT OR IGNORE INTO search_tags (asset_id, tag, pseudo, updated_at)
              SELECT NEW.asset_id, value, NEW.pseudo, NEW.updated_at FROM json_each(NEW.tag_list);
            INSERT OR IGNORE INTO search_vocab (term, rev, len)
              SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.vocabulary);
        END`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER "search_input_write"`);
        await queryRunner.query(`DROP VIEW "search_input"`);
    }
}
