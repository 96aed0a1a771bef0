import { MigrationInterface, QueryRunner } from 'typeorm';

/** Formats whose language is still to be detected (stored with a provisional label under load). */
export class FormatClassificationPending1763700400000 implements MigrationInterface {
  name = 'FormatClassificationPending1763700400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "formats" ADD "classification_pending" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE INDEX "formats_classification_pending" ON "formats" ("classification_pending")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "formats_classification_pending"`);
    await queryRunner.query(`ALTER TABLE "formats" DROP COLUMN "classification_pending"`);
  }
}
