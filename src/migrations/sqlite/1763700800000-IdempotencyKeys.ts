import { MigrationInterface, QueryRunner } from "typeorm";

/** Idempotency keys of creates (a retry after a lost response answers the same resource). */
export class IdempotencyKeys1763700800000 implements MigrationInterface {
    name = 'IdempotencyKeys1763700800000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "idempotency_keys" ("key" varchar(320) PRIMARY KEY NOT NULL, "request_hash" varchar(64) NOT NULL, "resource_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" ("created_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "idempotency_keys_created"`);
        await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    }
}
