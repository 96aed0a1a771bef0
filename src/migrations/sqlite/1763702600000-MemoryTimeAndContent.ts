import { MigrationInterface, QueryRunner } from 'typeorm';
import { memoryContentHash } from '../../modules/assets/memory-content-hash';

/**
 * Memories (workstream summaries) keep the time they are about (`about_at`: their creation, or
 * the time the client gave) and a hash of what makes two of them the same (`content_hash`: the
 * text, the client that saved it, and the time it is about when the client gives one), unique, so that saving one again, even twice at once, keeps
 * one. Existing rows: `about_at` is their creation; the oldest of identical live ones gets the
 * hash (the others keep none and stay as they are); tombstones keep none.
 */
export class MemoryTimeAndContent1763702600000 implements MigrationInterface {
  name = 'MemoryTimeAndContent1763702600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "about_at" varchar(30)`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "content_hash" varchar(64)`);
    await queryRunner.query(`UPDATE "workstream_summaries" SET "about_at" = "created_at"`);
    const rows: Array<{ id: string; text: string; source: string | null }> = await queryRunner.query(
      `SELECT "id", "text", "source" FROM "workstream_summaries" WHERE "deleted_at" IS NULL ORDER BY "created_at", "id"`,
    );
    const seen = new Set<string>();
    for (const row of rows) {
      const hash = memoryContentHash(row.text, row.source);
      if (seen.has(hash)) continue;
      seen.add(hash);
      await queryRunner.query(`UPDATE "workstream_summaries" SET "content_hash" = ? WHERE "id" = ?`, [hash, row.id]);
    }
    await queryRunner.query(`CREATE UNIQUE INDEX "workstream_summaries_content" ON "workstream_summaries" ("content_hash")`);
    await queryRunner.query(`CREATE INDEX "workstream_summaries_about" ON "workstream_summaries" ("deleted_at", "about_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "workstream_summaries_about"`);
    await queryRunner.query(`DROP INDEX "workstream_summaries_content"`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" DROP COLUMN "content_hash"`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" DROP COLUMN "about_at"`);
  }
}
