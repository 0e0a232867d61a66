CREATE TABLE "app_instance" (
	"worker_id" smallint PRIMARY KEY NOT NULL,
	"instance_id" varchar(64) NOT NULL,
	"host" varchar(255) NOT NULL,
	"pid" integer NOT NULL,
	"version" varchar(64) NOT NULL,
	"keys_digest" varchar(64) NOT NULL,
	"start_time" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_time" timestamp with time zone DEFAULT now() NOT NULL
);
