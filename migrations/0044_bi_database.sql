-- A separate BI database (issue 32, docs/bi.md "The BI database"). A BI tool no longer connects to
-- this database: it connects to its own database holding only foreign tables of schema "bi"
-- (postgres_fdw), as a user-facing role (user_name) with no CONNECT here. Each user-facing role has
-- a user mapping to an internal source role (role_name, as before: the views find the tenant by
-- role_name = current_user). Rows from before this migration have no user_name: the server makes
-- their role the user-facing one and gives it a new source role (src/bi/database.ts).
ALTER TABLE "bi_credentials" ADD COLUMN "user_name" text;
--> statement-breakpoint
ALTER TABLE "bi_credentials" ADD CONSTRAINT "bi_credentials_user_name_unique" UNIQUE ("user_name");
--> statement-breakpoint
GRANT SELECT ("user_name") ON TABLE "bi_credentials" TO app_tenant;
