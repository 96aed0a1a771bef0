import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The vectors of memories and snippets in the configured embedding model (TROVE_EMBEDDING_MODEL),
 * written in the background after their records are saved (ModelVectorIndex): one row per record
 * kind (`asset`, `memory`), record id and model, the vector as little-endian Float32, and the
 * hash of the text it was computed from (a changed text or another model is embedded again).
 */
export class ModelVectors1763702800000 implements MigrationInterface {
  name = 'ModelVectors1763702800000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "search_model_vectors" ("kind" varchar(16) NOT NULL, "record_id" varchar(36) NOT NULL, "model" varchar(256) NOT NULL, "content_hash" varchar(64) NOT NULL, "vector" blob NOT NULL, "updated_at" varchar(30) NOT NULL, PRIMARY KEY ("kind", "record_id", "model"))`,
    );
    await queryRunner.query(`CREATE INDEX "search_model_vectors_model" ON "search_model_vectors" ("model", "kind", "updated_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "search_model_vectors"`);
  }
}
