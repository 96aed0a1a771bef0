import { MigrationInterface, QueryRunner } from "typeorm";

/** The connector: snippets sent as intentions, and tracking / reaction events of integrations. */
export class Connector1763700500000 implements MigrationInterface {
    name = 'Connector1763700500000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "connector_intentions" ("id" varchar(36) PRIMARY KEY NOT NULL, "application_id" varchar(36) NOT NULL, "name" varchar(1024), "raw" text NOT NULL, "normalized" text NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_connector_intentions_application" FOREIGN KEY ("application_id") REFERENCES "applications" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`CREATE INDEX "connector_intentions_application" ON "connector_intentions" ("application_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "connector_events" ("id" varchar(36) PRIMARY KEY NOT NULL, "application_id" varchar(36) NOT NULL, "asset_id" varchar(36), "kind" varchar(32) NOT NULL, "payload" text, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_connector_events_application" FOREIGN KEY ("application_id") REFERENCES "applications" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`CREATE INDEX "connector_events_application" ON "connector_events" ("application_id", "created_at") `);
        await queryRunner.query(`CREATE INDEX "connector_events_asset" ON "connector_events" ("asset_id", "created_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "connector_events_asset"`);
        await queryRunner.query(`DROP INDEX "connector_events_application"`);
        await queryRunner.query(`DROP TABLE "connector_events"`);
        await queryRunner.query(`DROP INDEX "connector_intentions_application"`);
        await queryRunner.query(`DROP TABLE "connector_intentions"`);
    }

}
