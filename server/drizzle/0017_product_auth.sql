CREATE TABLE "ymy_product_auth" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"type_id" bigint NOT NULL,
	"create_user" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_product_auth" ON "ymy_product_auth" USING btree ("tenant_id","type_id");--> statement-breakpoint
CREATE INDEX "ix_product_auth_time" ON "ymy_product_auth" USING btree ("create_time","id");