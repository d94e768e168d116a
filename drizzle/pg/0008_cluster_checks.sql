CREATE TABLE "cluster_checks" (
	"name" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"updated_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
