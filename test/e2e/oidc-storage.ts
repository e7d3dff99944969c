/**
 * The storage of the local OpenID Provider (oidc-server.ts), per server: a Map. Its built-in in-memory store is
 * the same thing but prints a "you MUST change it" warning on every start.
 */
export function memoryAdapter() {
  const store = new Map<string, { payload: Record<string, unknown>; expires?: number }>();
  const live = (key: string) => {
    const hit = store.get(key);
    if (hit?.expires !== undefined && hit.expires < Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  const find = (predicate: (p: Record<string, unknown>) => boolean) =>
    [...store.keys()].map(live).find((p) => p && predicate(p));
  const revokeByGrantId = (grantId: string) => {
    for (const [key, { payload }] of store) if (payload.grantId === grantId) store.delete(key);
  };
  const Adapter = class {
    constructor(readonly model: string) {}
    key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), {
        payload: { ...payload },
        expires: expiresIn ? Date.now() + expiresIn * 1000 : undefined,
      });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      return find((p) => p.uid === uid);
    }
    async findByUserCode(userCode: string) {
      return find((p) => p.userCode === userCode);
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      revokeByGrantId(grantId);
    }
  };
  /** Every grant goes, with the tokens issued under it (what oidc-provider's own revocation removes). */
  async function endGrants() {
    for (const key of [...store.keys()].filter((k) => k.startsWith("Grant:"))) {
      revokeByGrantId(key.slice("Grant:".length));
      store.delete(key);
    }
  }
  return { Adapter, endGrants };
}
