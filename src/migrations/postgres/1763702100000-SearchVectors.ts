import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each live asset's vector in Trove's offline code embedding (int8 per dimension), written with
 * its search document: the dense first stage of relevance and neural code search (DenseIndex).
 * `doc` numbers the rows and is never reused (an instance keeps its sketches by it); a rewritten
 * vector keeps its row. Vectors of a store written before this table existed come with the
 * background re-index of search analysis version 3 (search-index.service.ts).
 */
export class SearchVectors1763702100000 implements MigrationInterface {
  name = 'SearchVectors1763702100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "search_vectors" ("doc" bigserial PRIMARY KEY, "asset_id" varchar NOT NULL, "vector" bytea NOT NULL)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "search_vectors_asset" ON "search_vectors" ("asset_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "search_vectors"`);
  }
}
