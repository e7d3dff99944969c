/**
 * What upgrade writes into package.json for next-auth 5 and for the
 * @auth/* adapters that replace @next-auth/* ones: per package, each release
 * whose peer dependencies differ from the newer ones, newest first, with
 * those peers and the @auth/core it depends on. Only releases made for
 * next-auth 5 are listed: their @auth/core is at least 0.18.4, the one of the
 * first next-auth 5 release on the registry (an older adapter was built
 * against an @auth/core next-auth 5 never shipped with).
 *
 * Facts from the registry (npm view <package>@<version> peerDependencies
 * peerDependenciesMeta dependencies), kept here rather than asked at run
 * time: the plan, --dry-run and --no-install work offline and give the same
 * answer every time, and a registry mirror may lack metadata. The pack layer
 * (test/upgrade/releases.pack.test.ts) compares every row with the registry.
 */

export interface Release {
  /** Exact: written as is, so the peers checked are the peers installed. */
  version: string;
  /** The @auth/core it depends on (exactly), which makes it a release for next-auth 5. */
  core: string;
  peers: Record<string, string>;
  /** Peers npm installs only when the project has them (a present one must still fit). */
  optional?: string[];
}

export const v5Releases: Record<string, readonly Release[]> = {
  "next-auth": [
    {
      version: "5.0.0-beta.32",
      core: "0.41.3",
      peers: {
        "@simplewebauthn/browser": "^9.0.1",
        "@simplewebauthn/server": "^9.0.2",
        next: "^14.0.0-0 || ^15.0.0 || ^16.0.0",
        nodemailer: "^7.0.7 || ^8.0.5",
        react: "^18.2.0 || ^19.0.0",
      },
      optional: ["@simplewebauthn/browser", "@simplewebauthn/server", "nodemailer"],
    },
  ],
  "@auth/azure-tables-adapter": [{ version: "0.6.0", core: "0.28.0", peers: { "@azure/data-tables": "^13.2.1" } }],
  "@auth/d1-adapter": [{ version: "1.11.3", core: "0.41.3", peers: {} }],
  "@auth/drizzle-adapter": [{ version: "1.11.3", core: "0.41.3", peers: {} }],
  "@auth/dynamodb-adapter": [
    {
      version: "2.11.3",
      core: "0.41.3",
      peers: { "@aws-sdk/client-dynamodb": "^3.36.1", "@aws-sdk/lib-dynamodb": "^3.36.1" },
    },
  ],
  "@auth/edgedb-adapter": [{ version: "1.11.2", core: "0.41.2", peers: { edgedb: "^1.0.1" } }],
  "@auth/firebase-adapter": [
    { version: "2.11.3", core: "0.41.3", peers: { "firebase-admin": "^12.0.0 || ^13.0.0" } },
    { version: "2.10.0", core: "0.40.0", peers: { "firebase-admin": "^12.0.0" } },
    { version: "2.4.2", core: "0.34.2", peers: { "firebase-admin": "^11.4.1" } },
  ],
  "@auth/hasura-adapter": [{ version: "1.11.1", core: "0.41.1", peers: {} }],
  "@auth/kysely-adapter": [
    { version: "1.11.2", core: "0.41.2", peers: { kysely: "^0.28.15" } },
    { version: "1.11.1", core: "0.41.1", peers: { kysely: "^0.27.5" } },
    { version: "1.7.4", core: "0.37.4", peers: { kysely: "^0.26.1" } },
  ],
  "@auth/mongodb-adapter": [{ version: "3.11.3", core: "0.41.3", peers: { mongodb: "^6" } }],
  "@auth/neon-adapter": [
    { version: "1.11.3", core: "0.41.3", peers: { "@neondatabase/serverless": "^0.10.4 || ^1.0.0" } },
    { version: "1.10.0", core: "0.40.0", peers: {} },
  ],
  "@auth/pg-adapter": [{ version: "1.11.3", core: "0.41.3", peers: { pg: "^8" } }],
  "@auth/prisma-adapter": [
    { version: "2.11.3", core: "0.41.3", peers: { "@prisma/client": ">=2.26.0 || >=3 || >=4 || >=5 || >=6" } },
    { version: "2.7.4", core: "0.37.4", peers: { "@prisma/client": ">=2.26.0 || >=3 || >=4 || >=5" } },
  ],
  "@auth/sequelize-adapter": [{ version: "2.11.3", core: "0.41.3", peers: { sequelize: "^6.6.5" } }],
  "@auth/supabase-adapter": [
    { version: "1.11.3", core: "0.41.3", peers: { "@supabase/supabase-js": "^2.43.1" } },
    { version: "1.1.0", core: "0.31.0", peers: { "@supabase/supabase-js": "^2.0.5" } },
  ],
  "@auth/typeorm-adapter": [
    {
      version: "2.11.3",
      core: "0.41.3",
      peers: {
        libsql: "^0.3.18",
        mssql: "^6.2.1 || ^7 || ^8 || ^9",
        mysql: "^2.18.1 || ^3",
        pg: "^8.2.1",
        typeorm: "^0.3.7",
      },
      optional: ["libsql", "mssql", "mysql", "pg"],
    },
    {
      version: "2.0.0",
      core: "0.30.0",
      peers: {
        mssql: "^6.2.1 || ^7 || ^8 || ^9",
        mysql: "^2.18.1 || ^3",
        pg: "^8.2.1",
        sqlite3: "^5.0.2",
        typeorm: "^0.3.7",
      },
      optional: ["mssql", "mysql", "pg", "sqlite3"],
    },
  ],
  "@auth/unstorage-adapter": [{ version: "2.11.2", core: "0.41.2", peers: { unstorage: "^1.10.1" } }],
  "@auth/upstash-redis-adapter": [{ version: "2.11.3", core: "0.41.3", peers: { "@upstash/redis": "^1.0.1" } }],
};
