import { CONSOLE_CLIENT, type Page } from '@console/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/core/db/index.js';
import { md5, useServer } from './harness.js';

const h = useServer();
type Client = { id: string; clientId: string; authorizedGrantTypes: string; scope: string; accessTokenValidity: number; refreshTokenValidity: number; clientSecret?: string };
const CLIENT = '/api/blade-system/client';
let admin: string;
let demo: string;
/** every answer of this file, scanned at the end for secrets */
const answers: string[] = [];
const secrets: string[] = [];

const call = async <T>(method: 'GET' | 'POST', url: string, opts: Parameters<typeof h.call>[2] = {}) => {
  const res = await h.call<T>(method, url, opts);
  answers.push(res.raw.body);
  return res;
};
const submit = (body: Record<string, unknown>, token = admin, lang?: 'zh' | 'en') => call<Client>('POST', `${CLIENT}/submit`, { token, body, lang });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** a password sign-in of the platform's admin through a client */
const signIn = (authorization: string) => h.server.app.inject({
  method: 'POST', url: '/api/blade-auth/oauth/token',
  query: { grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin'), scope: 'all', type: 'account' },
  headers: { authorization, 'tenant-id': '000000' },
});

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

describe('OAuth clients', () => {
  let created: Client;
  let secret: string;

  it('creates a client with a server-generated secret, answered once', async () => {
    const res = await submit({
      clientId: 'field_app', authorizedGrantTypes: 'password,refresh_token,password', scope: 'all',
      accessTokenValidity: 7200, refreshTokenValidity: 86400, clientSecret: 'chosen-by-caller',
    });
    expect(res.status).toBe(200);
    created = res.body.data;
    secret = created.clientSecret!;
    secrets.push(secret);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe('chosen-by-caller');
    expect(created).toMatchObject({ clientId: 'field_app', authorizedGrantTypes: 'password,refresh_token', accessTokenValidity: 7200 });
    // stored as its sha-256, never as given
    const [row] = await h.server.ctx.db.select().from(schema.client).where(eq(schema.client.id, created.id));
    expect(row!.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    secrets.push(row!.clientSecret);

    const token = await signIn(basic('field_app', secret));
    expect(token.statusCode).toBe(200);
    expect(token.json()).toMatchObject({ client_id: 'field_app' });
    expect((await signIn(basic('field_app', 'chosen-by-caller'))).statusCode).toBe(401);
  });

  it('never answers the secret again: list, detail, update', async () => {
    const list = await call<Page<Client>>('GET', `${CLIENT}/list`, { token: admin });
    expect(list.body.data.records.map((c) => c.clientId)).toEqual(expect.arrayContaining(['saber', 'field_app']));
    for (const c of list.body.data.records) expect(c).not.toHaveProperty('clientSecret');
    const detail = await call<Client>('GET', `${CLIENT}/detail`, { token: admin, query: { id: created.id } });
    expect(detail.body.data).not.toHaveProperty('clientSecret');
    const upd = await submit({ id: created.id, scope: 'server', clientSecret: 'x' });
    expect(upd.status).toBe(200);
    expect(upd.body.data).not.toHaveProperty('clientSecret');
    // the secret an update cannot change: the old one still works
    expect((await signIn(basic('field_app', secret))).statusCode).toBe(200);
  });

  it('reset-secret issues a new secret, shown once; the old one stops working at once', async () => {
    // the old secret is verified (and cached) first
    expect((await signIn(basic('field_app', secret))).statusCode).toBe(200);
    const res = await call<{ id: string; clientId: string; clientSecret: string }>('POST', `${CLIENT}/reset-secret`, { token: admin, query: { id: created.id } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, clientId: 'field_app' });
    const fresh = res.body.data.clientSecret;
    secrets.push(fresh);
    expect(fresh).not.toBe(secret);
    expect((await signIn(basic('field_app', secret))).statusCode).toBe(401);
    expect((await signIn(basic('field_app', fresh))).statusCode).toBe(200);
    // a JSON body works as well as the query string
    const again = await call<{ clientSecret: string }>('POST', `${CLIENT}/reset-secret`, { token: admin, body: { id: created.id } });
    expect(again.status).toBe(200);
    secrets.push(again.body.data.clientSecret);
    expect((await call('POST', `${CLIENT}/reset-secret`, { token: admin, query: { id: '123' } })).status).toBe(404);
  });

  it('checks the client id, the grant types, the required fields and duplicates', async () => {
    const empty = await submit({}, admin, 'en');
    expect(empty.status).toBe(400);
    expect(empty.body.data).toMatchObject({ clientId: 'Please enter the client id', authorizedGrantTypes: 'Please select the grant types' });
    const colon = await submit({ clientId: 'a:b', authorizedGrantTypes: 'password', scope: 'all', accessTokenValidity: 3600, refreshTokenValidity: 3600 });
    expect(colon.status).toBe(400);
    expect(colon.body.data).toHaveProperty('clientId');
    const grant = await submit({ clientId: 'g1', authorizedGrantTypes: 'password,implicit', scope: 'all', accessTokenValidity: 3600, refreshTokenValidity: 3600 });
    expect(grant.status).toBe(400);
    expect(grant.body.data).toEqual({ authorizedGrantTypes: '授权类型只能是 password, captcha, refresh_token, authorization_code, social' });
    const dup = await submit({ clientId: 'saber', authorizedGrantTypes: 'password', scope: 'all', accessTokenValidity: 3600, refreshTokenValidity: 3600 });
    expect(dup.status).toBe(409);
  });

  it('keeps the console\'s own client working: it cannot be removed, renamed or have its secret reset by a session using it', async () => {
    const list = await call<Page<Client>>('GET', `${CLIENT}/list`, { token: admin, query: { clientId_equal: 'saber' } });
    const saber = list.body.data.records[0]!;
    const rm = await call('POST', `${CLIENT}/remove`, { token: admin, query: { ids: saber.id } });
    expect(rm.status).toBe(400);
    expect((rm.body as { msg: string }).msg).toContain('saber');
    expect((await submit({ id: saber.id, clientId: 'saber2' })).status).toBe(400);
    expect((await call('POST', `${CLIENT}/reset-secret`, { token: admin, query: { id: saber.id } })).status).toBe(400);
    // an ordinary edit keeps its secret
    expect((await submit({ id: saber.id, accessTokenValidity: saber.accessTokenValidity })).status).toBe(200);
    expect((await signIn(basic(CONSOLE_CLIENT.id, CONSOLE_CLIENT.secret))).statusCode).toBe(200);
    expect((await call('GET', `${CLIENT}/list`, { token: admin })).status).toBe(200);
  });

  it('removes another client; its secret stops working at once', async () => {
    expect((await call('POST', `${CLIENT}/remove`, { token: admin, query: { ids: created.id } })).status).toBe(200);
    const fresh = secrets.at(-1)!;
    expect((await signIn(basic('field_app', fresh))).statusCode).toBe(401);
  });

  it('answers 401 without a token and 403 to a tenant\'s administrator', async () => {
    expect((await call('GET', `${CLIENT}/list`)).status).toBe(401);
    expect((await call('POST', `${CLIENT}/reset-secret`, { query: { id: '1' } })).status).toBe(401);
    expect((await call('GET', `${CLIENT}/list`, { token: demo })).status).toBe(403);
    expect((await call('GET', `${CLIENT}/detail`, { token: demo, query: { id: '1' } })).status).toBe(403);
    expect((await submit({ clientId: 'tenant_app', authorizedGrantTypes: 'password', scope: 'all', accessTokenValidity: 3600, refreshTokenValidity: 3600 }, demo)).status).toBe(403);
    expect((await call('POST', `${CLIENT}/reset-secret`, { token: demo, query: { id: '1' } })).status).toBe(403);
  });

  it('no answer but the two that issued them carries a secret or its hash', () => {
    const issuing = answers.filter((a) => a.includes('"clientSecret"'));
    expect(issuing).toHaveLength(3); // create, reset-secret twice
    for (const a of answers) {
      if (issuing.includes(a)) continue;
      for (const s of secrets) expect(a).not.toContain(s);
      expect(a).not.toMatch(/[0-9a-f]{64}/);
    }
  });
});
