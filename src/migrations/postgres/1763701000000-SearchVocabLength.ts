import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Typo correction looks up vocabulary terms of a few exact lengths sharing a prefix (or a
 * suffix): with the length first in the key, each length is one range seek instead of a walk
 * over every term of the prefix (15,643 rows for "r" in the 100,000-asset bench, to keep 13).
 * The primary key becomes (len, term): the length is a function of the term, so it stays
 * unique per term, and serves the prefix seeks itself.
 */
export class SearchVocabLength1763701000000 implements MigrationInterface {
    name = 'SearchVocabLength1763701000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "search_vocab" DROP CONSTRAINT "PK_search_vocab"`);
        await queryRunner.query(`ALTER TABLE "search_vocab" ADD CONSTRAINT "PK_search_vocab" PRIMARY KEY ("len", "term")`);
        await queryRunner.query(`DROP INDEX "search_vocab_rev"`);
        await queryRunner.query(`CREATE INDEX "search_vocab_len_rev" ON "search_vocab" ("len", "rev")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "search_vocab_len_rev"`);
        await queryRunner.query(`CREATE INDEX "search_vocab_rev" ON "search_vocab" ("rev")`);
        await queryRunner.query(`ALTER TABLE "search_vocab" DROP CONSTRAINT "PK_search_vocab"`);
        await queryRunner.query(`ALTER TABLE "search_vocab" ADD CONSTRAINT "PK_search_vocab" PRIMARY KEY ("term")`);
    }
}
