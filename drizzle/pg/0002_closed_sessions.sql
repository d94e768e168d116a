CREATE TABLE "closed_sessions" (
	"digest" text PRIMARY KEY NOT NULL,
	"closed_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
