import { MigrationInterface, QueryRunner } from "typeorm";

/** Conversations, their messages and annotations, anchors, ranges, and the join rows linking conversations to assets, websites, anchors, workstream summaries, ranges and messages. */
export class Conversations1763700300000 implements MigrationInterface {
    name = 'Conversations1763700300000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "ranges" ("id" varchar(36) PRIMARY KEY NOT NULL, "from_at" varchar(30), "to_at" varchar(30), "continuous" boolean NOT NULL DEFAULT (0), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE TABLE "conversations" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(1024), "type" varchar(16) NOT NULL, "favorited" boolean NOT NULL DEFAULT (0), "score_manual" integer NOT NULL DEFAULT (0), "score_automatic" integer NOT NULL DEFAULT (0), "score_reuse" integer NOT NULL DEFAULT (0), "score_update" integer NOT NULL DEFAULT (0), "score_reference" integer NOT NULL DEFAULT (0), "score_priority" integer NOT NULL DEFAULT (0), "score_searched" integer NOT NULL DEFAULT (0), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, "deleted_at" varchar(30))`);
        await queryRunner.query(`CREATE INDEX "conversations_listing" ON "conversations" ("deleted_at", "created_at") `);
        await queryRunner.query(`CREATE TABLE "conversation_messages" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "position" integer NOT NULL, "role" varchar(16) NOT NULL, "text" text NOT NULL, "sentiment" varchar(16), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, "deleted_at" varchar(30))`);
        await queryRunner.query(`CREATE INDEX "conversation_messages_order" ON "conversation_messages" ("conversation_id", "position") `);
        await queryRunner.query(`CREATE TABLE "anchors" ("id" varchar(36) PRIMARY KEY NOT NULL, "type" varchar(16) NOT NULL, "fullpath" varchar(4096) NOT NULL, "name" varchar(1024), "watch" boolean NOT NULL DEFAULT (0), "platform" varchar(16), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE TABLE "conversation_assets" ("conversation_id" varchar(36) NOT NULL, "asset_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "asset_id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_assets_asset" ON "conversation_assets" ("asset_id") `);
        await queryRunner.query(`CREATE TABLE "conversation_websites" ("conversation_id" varchar(36) NOT NULL, "website_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "website_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_anchors" ("conversation_id" varchar(36) NOT NULL, "anchor_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "anchor_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_workstream_summaries" ("conversation_id" varchar(36) NOT NULL, "workstream_summary_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "workstream_summary_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_grounding_ranges" ("conversation_id" varchar(36) NOT NULL, "range_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "range_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_grounding_messages" ("conversation_id" varchar(36) NOT NULL, "message_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "message_id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_grounding_messages_message" ON "conversation_grounding_messages" ("message_id") `);
        await queryRunner.query(`CREATE TABLE "conversation_annotations" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "type" varchar(16) NOT NULL, "text" text NOT NULL, "mechanism" varchar(16) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE INDEX "conversation_annotations_conversation" ON "conversation_annotations" ("conversation_id") `);
        await queryRunner.query(`DROP INDEX "conversation_messages_order"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_messages" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "position" integer NOT NULL, "role" varchar(16) NOT NULL, "text" text NOT NULL, "sentiment" varchar(16), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, "deleted_at" varchar(30), CONSTRAINT "FK_8e166abf2dd2ee28670e53e6803" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_messages"("id", "conversation_id", "position", "role", "text", "sentiment", "created_at", "updated_at", "deleted_at") SELECT "id", "conversation_id", "position", "role", "text", "sentiment", "created_at", "updated_at", "deleted_at" FROM "conversation_messages"`);
        await queryRunner.query(`DROP TABLE "conversation_messages"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_messages" RENAME TO "conversation_messages"`);
        await queryRunner.query(`CREATE INDEX "conversation_messages_order" ON "conversation_messages" ("conversation_id", "position") `);
        await queryRunner.query(`DROP INDEX "conversation_assets_asset"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_assets" ("conversation_id" varchar(36) NOT NULL, "asset_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_a10eba3d3eda226498781d7a033" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_088a8603c252161f105b036f45d" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("conversation_id", "asset_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_assets"("conversation_id", "asset_id", "created_at") SELECT "conversation_id", "asset_id", "created_at" FROM "conversation_assets"`);
        await queryRunner.query(`DROP TABLE "conversation_assets"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_assets" RENAME TO "conversation_assets"`);
        await queryRunner.query(`CREATE INDEX "conversation_assets_asset" ON "conversation_assets" ("asset_id") `);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_websites" ("conversation_id" varchar(36) NOT NULL, "website_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_50ac67c82bdaa167737c17341c4" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_27f4361dc654c14af3ac4050288" FOREIGN KEY ("website_id") REFERENCES "websites" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("conversation_id", "website_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_websites"("conversation_id", "website_id", "created_at") SELECT "conversation_id", "website_id", "created_at" FROM "conversation_websites"`);
        await queryRunner.query(`DROP TABLE "conversation_websites"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_websites" RENAME TO "conversation_websites"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_anchors" ("conversation_id" varchar(36) NOT NULL, "anchor_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_2a8fc68ee2cbac88d24a8df7d4f" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_25b6a39f0a8380414cf2bd9dd67" FOREIGN KEY ("anchor_id") REFERENCES "anchors" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("conversation_id", "anchor_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_anchors"("conversation_id", "anchor_id", "created_at") SELECT "conversation_id", "anchor_id", "created_at" FROM "conversation_anchors"`);
        await queryRunner.query(`DROP TABLE "conversation_anchors"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_anchors" RENAME TO "conversation_anchors"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_workstream_summaries" ("conversation_id" varchar(36) NOT NULL, "workstream_summary_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_d3264f021102e3a5cc147cc3c09" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_f63333b89a857cf26b036b320db" FOREIGN KEY ("workstream_summary_id") REFERENCES "workstream_summaries" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("conversation_id", "workstream_summary_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_workstream_summaries"("conversation_id", "workstream_summary_id", "created_at") SELECT "conversation_id", "workstream_summary_id", "created_at" FROM "conversation_workstream_summaries"`);
        await queryRunner.query(`DROP TABLE "conversation_workstream_summaries"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_workstream_summaries" RENAME TO "conversation_workstream_summaries"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_grounding_ranges" ("conversation_id" varchar(36) NOT NULL, "range_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_adc65b42ea965cd5b3619f91bdf" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_39d0d021baeb7e82b94b7162283" FOREIGN KEY ("range_id") REFERENCES "ranges" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("conversation_id", "range_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_grounding_ranges"("conversation_id", "range_id", "created_at") SELECT "conversation_id", "range_id", "created_at" FROM "conversation_grounding_ranges"`);
        await queryRunner.query(`DROP TABLE "conversation_grounding_ranges"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_grounding_ranges" RENAME TO "conversation_grounding_ranges"`);
        await queryRunner.query(`DROP INDEX "conversation_grounding_messages_message"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_grounding_messages" ("conversation_id" varchar(36) NOT NULL, "message_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_e2f79813f969f3c7277bdae0ee3" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_9a37dec6c9f7c26640992cea57a" FOREIGN KEY ("message_id") REFERENCES "conversation_messages" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("conversation_id", "message_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_grounding_messages"("conversation_id", "message_id", "created_at") SELECT "conversation_id", "message_id", "created_at" FROM "conversation_grounding_messages"`);
        await queryRunner.query(`DROP TABLE "conversation_grounding_messages"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_grounding_messages" RENAME TO "conversation_grounding_messages"`);
        await queryRunner.query(`CREATE INDEX "conversation_grounding_messages_message" ON "conversation_grounding_messages" ("message_id") `);
        await queryRunner.query(`DROP INDEX "conversation_annotations_conversation"`);
        await queryRunner.query(`CREATE TABLE "temporary_conversation_annotations" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "type" varchar(16) NOT NULL, "text" text NOT NULL, "mechanism" varchar(16) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, CONSTRAINT "FK_db8648fd579e9455d70ee5b85e0" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_conversation_annotations"("id", "conversation_id", "type", "text", "mechanism", "created_at", "updated_at") SELECT "id", "conversation_id", "type", "text", "mechanism", "created_at", "updated_at" FROM "conversation_annotations"`);
        await queryRunner.query(`DROP TABLE "conversation_annotations"`);
        await queryRunner.query(`ALTER TABLE "temporary_conversation_annotations" RENAME TO "conversation_annotations"`);
        await queryRunner.query(`CREATE INDEX "conversation_annotations_conversation" ON "conversation_annotations" ("conversation_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "conversation_annotations_conversation"`);
        await queryRunner.query(`ALTER TABLE "conversation_annotations" RENAME TO "temporary_conversation_annotations"`);
        await queryRunner.query(`CREATE TABLE "conversation_annotations" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "type" varchar(16) NOT NULL, "text" text NOT NULL, "mechanism" varchar(16) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`INSERT INTO "conversation_annotations"("id", "conversation_id", "type", "text", "mechanism", "created_at", "updated_at") SELECT "id", "conversation_id", "type", "text", "mechanism", "created_at", "updated_at" FROM "temporary_conversation_annotations"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_annotations"`);
        await queryRunner.query(`CREATE INDEX "conversation_annotations_conversation" ON "conversation_annotations" ("conversation_id") `);
        await queryRunner.query(`DROP INDEX "conversation_grounding_messages_message"`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_messages" RENAME TO "temporary_conversation_grounding_messages"`);
        await queryRunner.query(`CREATE TABLE "conversation_grounding_messages" ("conversation_id" varchar(36) NOT NULL, "message_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "message_id"))`);
        await queryRunner.query(`INSERT INTO "conversation_grounding_messages"("conversation_id", "message_id", "created_at") SELECT "conversation_id", "message_id", "created_at" FROM "temporary_conversation_grounding_messages"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_grounding_messages"`);
        await queryRunner.query(`CREATE INDEX "conversation_grounding_messages_message" ON "conversation_grounding_messages" ("message_id") `);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_ranges" RENAME TO "temporary_conversation_grounding_ranges"`);
        await queryRunner.query(`CREATE TABLE "conversation_grounding_ranges" ("conversation_id" varchar(36) NOT NULL, "range_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "range_id"))`);
        await queryRunner.query(`INSERT INTO "conversation_grounding_ranges"("conversation_id", "range_id", "created_at") SELECT "conversation_id", "range_id", "created_at" FROM "temporary_conversation_grounding_ranges"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_grounding_ranges"`);
        await queryRunner.query(`ALTER TABLE "conversation_workstream_summaries" RENAME TO "temporary_conversation_workstream_summaries"`);
        await queryRunner.query(`CREATE TABLE "conversation_workstream_summaries" ("conversation_id" varchar(36) NOT NULL, "workstream_summary_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "workstream_summary_id"))`);
        await queryRunner.query(`INSERT INTO "conversation_workstream_summaries"("conversation_id", "workstream_summary_id", "created_at") SELECT "conversation_id", "workstream_summary_id", "created_at" FROM "temporary_conversation_workstream_summaries"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_workstream_summaries"`);
        await queryRunner.query(`ALTER TABLE "conversation_anchors" RENAME TO "temporary_conversation_anchors"`);
        await queryRunner.query(`CREATE TABLE "conversation_anchors" ("conversation_id" varchar(36) NOT NULL, "anchor_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "anchor_id"))`);
        await queryRunner.query(`INSERT INTO "conversation_anchors"("conversation_id", "anchor_id", "created_at") SELECT "conversation_id", "anchor_id", "created_at" FROM "temporary_conversation_anchors"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_anchors"`);
        await queryRunner.query(`ALTER TABLE "conversation_websites" RENAME TO "temporary_conversation_websites"`);
        await queryRunner.query(`CREATE TABLE "conversation_websites" ("conversation_id" varchar(36) NOT NULL, "website_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "website_id"))`);
        await queryRunner.query(`INSERT INTO "conversation_websites"("conversation_id", "website_id", "created_at") SELECT "conversation_id", "website_id", "created_at" FROM "temporary_conversation_websites"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_websites"`);
        await queryRunner.query(`DROP INDEX "conversation_assets_asset"`);
        await queryRunner.query(`ALTER TABLE "conversation_assets" RENAME TO "temporary_conversation_assets"`);
        await queryRunner.query(`CREATE TABLE "conversation_assets" ("conversation_id" varchar(36) NOT NULL, "asset_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("conversation_id", "asset_id"))`);
        await queryRunner.query(`INSERT INTO "conversation_assets"("conversation_id", "asset_id", "created_at") SELECT "conversation_id", "asset_id", "created_at" FROM "temporary_conversation_assets"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_assets"`);
        await queryRunner.query(`CREATE INDEX "conversation_assets_asset" ON "conversation_assets" ("asset_id") `);
        await queryRunner.query(`DROP INDEX "conversation_messages_order"`);
        await queryRunner.query(`ALTER TABLE "conversation_messages" RENAME TO "temporary_conversation_messages"`);
        await queryRunner.query(`CREATE TABLE "conversation_messages" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "position" integer NOT NULL, "role" varchar(16) NOT NULL, "text" text NOT NULL, "sentiment" varchar(16), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, "deleted_at" varchar(30))`);
        await queryRunner.query(`INSERT INTO "conversation_messages"("id", "conversation_id", "position", "role", "text", "sentiment", "created_at", "updated_at", "deleted_at") SELECT "id", "conversation_id", "position", "role", "text", "sentiment", "created_at", "updated_at", "deleted_at" FROM "temporary_conversation_messages"`);
        await queryRunner.query(`DROP TABLE "temporary_conversation_messages"`);
        await queryRunner.query(`CREATE INDEX "conversation_messages_order" ON "conversation_messages" ("conversation_id", "position") `);
        await queryRunner.query(`DROP INDEX "conversation_annotations_conversation"`);
        await queryRunner.query(`DROP TABLE "conversation_annotations"`);
        await queryRunner.query(`DROP INDEX "conversation_grounding_messages_message"`);
        await queryRunner.query(`DROP TABLE "conversation_grounding_messages"`);
        await queryRunner.query(`DROP TABLE "conversation_grounding_ranges"`);
        await queryRunner.query(`DROP TABLE "conversation_workstream_summaries"`);
        await queryRunner.query(`DROP TABLE "conversation_anchors"`);
        await queryRunner.query(`DROP TABLE "conversation_websites"`);
        await queryRunner.query(`DROP INDEX "conversation_assets_asset"`);
        await queryRunner.query(`DROP TABLE "conversation_assets"`);
        await queryRunner.query(`DROP TABLE "anchors"`);
        await queryRunner.query(`DROP INDEX "conversation_messages_order"`);
        await queryRunner.query(`DROP TABLE "conversation_messages"`);
        await queryRunner.query(`DROP INDEX "conversations_listing"`);
        await queryRunner.query(`DROP TABLE "conversations"`);
        await queryRunner.query(`DROP TABLE "ranges"`);
    }

}
