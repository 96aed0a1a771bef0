import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MCP SSE sessions held by each instance, and the messages one instance relays to the instance
 * holding a session (a client's POST may reach any instance behind a load balancer).
 */
export class McpSessions1763701700000 implements MigrationInterface {
  name = 'McpSessions1763701700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mcp_sessions" ("id" varchar(36) PRIMARY KEY NOT NULL, "instance_id" varchar(36) NOT NULL, "client" varchar(128) NOT NULL, "created_at" varchar(30) NOT NULL, "seen_at" varchar(30) NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "mcp_sessions_instance" ON "mcp_sessions" ("instance_id")`);
    await queryRunner.query(
      `CREATE TABLE "mcp_relay" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "instance_id" varchar(36) NOT NULL, "session_id" varchar(36) NOT NULL, "message" text NOT NULL, "created_at" varchar(30) NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "mcp_relay_instance" ON "mcp_relay" ("instance_id", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "mcp_relay"`);
    await queryRunner.query(`DROP TABLE "mcp_sessions"`);
  }
}
