import { MigrationInterface, QueryRunner } from "typeorm";

/** Conversations, their messages and annotations, anchors, ranges, and the join rows linking conversations to assets, websites, anchors, workstream summaries, ranges and messages. */
export class Conversations1763700300000 implements MigrationInterface {
    name = 'Conversations1763700300000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "ranges" ("id" character varying(36) NOT NULL, "from_at" character varying(30), "to_at" character varying(30), "continuous" boolean NOT NULL DEFAULT false, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "PK_cc6bfd0d09dda9fa9158cadb6c5" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "conversations" ("id" character varying(36) NOT NULL, "name" character varying(1024), "type" character varying(16) NOT NULL, "favorited" boolean NOT NULL DEFAULT false, "score_manual" integer NOT NULL DEFAULT '0', "score_automatic" integer NOT NULL DEFAULT '0', "score_reuse" integer NOT NULL DEFAULT '0', "score_update" integer NOT NULL DEFAULT '0', "score_reference" integer NOT NULL DEFAULT '0', "score_priority" integer NOT NULL DEFAULT '0', "score_searched" integer NOT NULL DEFAULT '0', "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, "deleted_at" character varying(30), CONSTRAINT "PK_ee34f4f7ced4ec8681f26bf04ef" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "conversations_listing" ON "conversations" ("deleted_at", "created_at") `);
        await queryRunner.query(`CREATE TABLE "conversation_messages" ("id" character varying(36) NOT NULL, "conversation_id" character varying(36) NOT NULL, "position" integer NOT NULL, "role" character varying(16) NOT NULL, "text" text NOT NULL, "sentiment" character varying(16), "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, "deleted_at" character varying(30), CONSTRAINT "PK_113248f25c4c0a7c179b3f5a609" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_messages_order" ON "conversation_messages" ("conversation_id", "position") `);
        await queryRunner.query(`CREATE TABLE "anchors" ("id" character varying(36) NOT NULL, "type" character varying(16) NOT NULL, "fullpath" character varying(4096) NOT NULL, "name" character varying(1024), "watch" boolean NOT NULL DEFAULT false, "platform" character varying(16), "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "PK_03bc349493d79bedde50c189a11" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_assets" ("conversation_id" character varying(36) NOT NULL, "asset_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_550c5a90c6c9ead2b58c9549a5c" PRIMARY KEY ("conversation_id", "asset_id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_assets_asset" ON "conversation_assets" ("asset_id") `);
        await queryRunner.query(`CREATE TABLE "conversation_websites" ("conversation_id" character varying(36) NOT NULL, "website_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_6df3879439546a6cf0540c7b166" PRIMARY KEY ("conversation_id", "website_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_anchors" ("conversation_id" character varying(36) NOT NULL, "anchor_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_b304ad6f8870cc80239297186f2" PRIMARY KEY ("conversation_id", "anchor_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_workstream_summaries" ("conversation_id" character varying(36) NOT NULL, "workstream_summary_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_7061218acf826c3b42c1740088e" PRIMARY KEY ("conversation_id", "workstream_summary_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_grounding_ranges" ("conversation_id" character varying(36) NOT NULL, "range_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_d2374501c2252a22fceed6cd992" PRIMARY KEY ("conversation_id", "range_id"))`);
        await queryRunner.query(`CREATE TABLE "conversation_grounding_messages" ("conversation_id" character varying(36) NOT NULL, "message_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_ddc2820c3a6ac86f1d057a9f8d9" PRIMARY KEY ("conversation_id", "message_id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_grounding_messages_message" ON "conversation_grounding_messages" ("message_id") `);
        await queryRunner.query(`CREATE TABLE "conversation_annotations" ("id" character varying(36) NOT NULL, "conversation_id" character varying(36) NOT NULL, "type" character varying(16) NOT NULL, "text" text NOT NULL, "mechanism" character varying(16) NOT NULL, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "PK_9763f0d4198f426d02e375ea122" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "conversation_annotations_conversation" ON "conversation_annotations" ("conversation_id") `);
        await queryRunner.query(`ALTER TABLE "conversation_messages" ADD CONSTRAINT "FK_8e166abf2dd2ee28670e53e6803" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_assets" ADD CONSTRAINT "FK_a10eba3d3eda226498781d7a033" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_assets" ADD CONSTRAINT "FK_088a8603c252161f105b036f45d" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_websites" ADD CONSTRAINT "FK_50ac67c82bdaa167737c17341c4" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_websites" ADD CONSTRAINT "FK_27f4361dc654c14af3ac4050288" FOREIGN KEY ("website_id") REFERENCES "websites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_anchors" ADD CONSTRAINT "FK_2a8fc68ee2cbac88d24a8df7d4f" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_anchors" ADD CONSTRAINT "FK_25b6a39f0a8380414cf2bd9dd67" FOREIGN KEY ("anchor_id") REFERENCES "anchors"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_workstream_summaries" ADD CONSTRAINT "FK_d3264f021102e3a5cc147cc3c09" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_workstream_summaries" ADD CONSTRAINT "FK_f63333b89a857cf26b036b320db" FOREIGN KEY ("workstream_summary_id") REFERENCES "workstream_summaries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_ranges" ADD CONSTRAINT "FK_adc65b42ea965cd5b3619f91bdf" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_ranges" ADD CONSTRAINT "FK_39d0d021baeb7e82b94b7162283" FOREIGN KEY ("range_id") REFERENCES "ranges"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_messages" ADD CONSTRAINT "FK_e2f79813f969f3c7277bdae0ee3" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_messages" ADD CONSTRAINT "FK_9a37dec6c9f7c26640992cea57a" FOREIGN KEY ("message_id") REFERENCES "conversation_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "conversation_annotations" ADD CONSTRAINT "FK_db8648fd579e9455d70ee5b85e0" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "conversation_annotations" DROP CONSTRAINT "FK_db8648fd579e9455d70ee5b85e0"`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_messages" DROP CONSTRAINT "FK_9a37dec6c9f7c26640992cea57a"`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_messages" DROP CONSTRAINT "FK_e2f79813f969f3c7277bdae0ee3"`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_ranges" DROP CONSTRAINT "FK_39d0d021baeb7e82b94b7162283"`);
        await queryRunner.query(`ALTER TABLE "conversation_grounding_ranges" DROP CONSTRAINT "FK_adc65b42ea965cd5b3619f91bdf"`);
        await queryRunner.query(`ALTER TABLE "conversation_workstream_summaries" DROP CONSTRAINT "FK_f63333b89a857cf26b036b320db"`);
        await queryRunner.query(`ALTER TABLE "conversation_workstream_summaries" DROP CONSTRAINT "FK_d3264f021102e3a5cc147cc3c09"`);
        await queryRunner.query(`ALTER TABLE "conversation_anchors" DROP CONSTRAINT "FK_25b6a39f0a8380414cf2bd9dd67"`);
        await queryRunner.query(`ALTER TABLE "conversation_anchors" DROP CONSTRAINT "FK_2a8fc68ee2cbac88d24a8df7d4f"`);
        await queryRunner.query(`ALTER TABLE "conversation_websites" DROP CONSTRAINT "FK_27f4361dc654c14af3ac4050288"`);
        await queryRunner.query(`ALTER TABLE "conversation_websites" DROP CONSTRAINT "FK_50ac67c82bdaa167737c17341c4"`);
        await queryRunner.query(`ALTER TABLE "conversation_assets" DROP CONSTRAINT "FK_088a8603c252161f105b036f45d"`);
        await queryRunner.query(`ALTER TABLE "conversation_assets" DROP CONSTRAINT "FK_a10eba3d3eda226498781d7a033"`);
        await queryRunner.query(`ALTER TABLE "conversation_messages" DROP CONSTRAINT "FK_8e166abf2dd2ee28670e53e6803"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_annotations_conversation"`);
        await queryRunner.query(`DROP TABLE "conversation_annotations"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_grounding_messages_message"`);
        await queryRunner.query(`DROP TABLE "conversation_grounding_messages"`);
        await queryRunner.query(`DROP TABLE "conversation_grounding_ranges"`);
        await queryRunner.query(`DROP TABLE "conversation_workstream_summaries"`);
        await queryRunner.query(`DROP TABLE "conversation_anchors"`);
        await queryRunner.query(`DROP TABLE "conversation_websites"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_assets_asset"`);
        await queryRunner.query(`DROP TABLE "conversation_assets"`);
        await queryRunner.query(`DROP TABLE "anchors"`);
        await queryRunner.query(`DROP INDEX "public"."conversation_messages_order"`);
        await queryRunner.query(`DROP TABLE "conversation_messages"`);
        await queryRunner.query(`DROP INDEX "public"."conversations_listing"`);
        await queryRunner.query(`DROP TABLE "conversations"`);
        await queryRunner.query(`DROP TABLE "ranges"`);
    }

}
