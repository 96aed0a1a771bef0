import { MigrationInterface, QueryRunner } from "typeorm";

/** Idempotency keys of creates (a retry after a lost response answers the same resource). */
export class IdempotencyKeys1763700800000 implements MigrationInterface {
    name = 'IdempotencyKeys1763700800000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "idempotency_keys" ("key" character varying(320) NOT NULL, "request_hash" character varying(64) NOT NULL, "resource_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_idempotency_keys" PRIMARY KEY ("key"))`);
        await queryRunner.query(`CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" ("created_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."idempotency_keys_created"`);
        await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    }
}
