import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Typo correction looks up vocabulary terms of a few exact lengths sharing a prefix (or a
 * suffix): with the length first in the key, each length is one range seek instead of a walk
 * over every term of the prefix (15,643 rows for "r" in the 100,000-asset bench, to keep 13).
 * The table is keyed by (len, term) WITHOUT ROWID (the length is a function of the term, so
 * the key stays unique per term): two b-trees per term instead of three.
 */
export class SearchVocabLength1763701000000 implements MigrationInterface {
    name = 'SearchVocabLength1763701000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "search_vocab_by_length" ("len" integer NOT NULL, "term" varchar(64) NOT NULL, "rev" varchar(64) NOT NULL, PRIMARY KEY ("len", "term")) WITHOUT ROWID`);
        await queryRunner.query(`INSERT INTO "search_vocab_by_length" ("len", "term", "rev") SELECT "len", "term", "rev" FROM "search_vocab"`);
        await queryRunner.query(`DROP TABLE "search_vocab"`);
        await queryRunner.query(`ALTER TABLE "search_vocab_by_length" RENAME TO "search_vocab"`);
        await queryRunner.query(`CREATE INDEX "search_vocab_len_rev" ON "search_vocab" ("len", "rev")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "search_vocab_by_term" ("term" varchar(64) PRIMARY KEY NOT NULL, "rev" varchar(64) NOT NULL, "len" integer NOT NULL)`);
        await queryRunner.query(`INSERT INTO "search_vocab_by_term" ("term", "rev", "len") SELECT "term", "rev", "len" FROM "search_vocab"`);
        await queryRunner.query(`DROP TABLE "search_vocab"`);
        await queryRunner.query(`ALTER TABLE "search_vocab_by_term" RENAME TO "search_vocab"`);
        await queryRunner.query(`CREATE INDEX "search_vocab_rev" ON "search_vocab" ("rev")`);
    }
}
