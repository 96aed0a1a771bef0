import { MigrationInterface, QueryRunner } from 'typeorm';

/** Models: discovered provider models and custom models (POST /models/create). */
export class Models1763700700000 implements MigrationInterface {
  name = 'Models1763700700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "models" ("id" varchar(36) PRIMARY KEY NOT NULL, "provider" varchar(16) NOT NULL, "unique" text NOT NULL, "name" text NOT NULL, "custom" boolean NOT NULL DEFAULT (0), "base_model_id" varchar(36), "system_prompt" text, "parameters" text, "seed" text NOT NULL, "fingerprint" varchar(128) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "models_fingerprint" ON "models" ("fingerprint")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "models_fingerprint"`);
    await queryRunner.query(`DROP TABLE "models"`);
  }
}
