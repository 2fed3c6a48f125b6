import { randomUUID } from 'node:crypto';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import request from 'supertest';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { AuthGuard, StaffGuard } from './auth.guard';

const PASSWORD = 'Str0ngPassword';
const SIGN_IN_PLEASE = { message: 'Authentication required. Please log in.' };

/** The guards are passport's (through @nestjs/passport) and answer as the spec says. */
describe('authentication through passport', () => {
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function register() {
    const name = randomUUID().slice(0, 8);
    const body = { email: `${name}@example.com`, username: `user_${name}`, password: PASSWORD, password_confirm: PASSWORD };
    const response = await http().post('/api/v1/register/').send(body).expect(201);
    return response.body as { tokens: { access: string; refresh: string } };
  }

  it("guards with @nestjs/passport's AuthGuard", () => {
    expect(subject.app.get(AuthGuard)).toBeInstanceOf(PassportAuthGuard());
    expect(subject.app.get(StaffGuard)).toBeInstanceOf(PassportAuthGuard());
  });

  it('logs out with the bearer token alone, and that token is refused on the next request with the spec body', async () => {
    const { tokens } = await register();
    await http().get('/api/v1/profile/').set(bearer(tokens.access)).expect(200);
    await http().get('/api/v1/profile/').set(bearer(tokens.access)).expect(200); // now cached
    await http().post('/api/v1/logout/').set(bearer(tokens.access)).send({}).expect(200, { message: 'Logged out successfully' });
    const refused = await http().get('/api/v1/profile/').set(bearer(tokens.access)).expect(401);
    expect(refused.body).toEqual(SIGN_IN_PLEASE);
    await http().post('/api/v1/refresh/').send({ refresh: tokens.refresh }).expect(401);
  });

  it('logs out by refresh token whatever the bearer header says: the caller is optional there', async () => {
    const { tokens } = await register();
    await http()
      .post('/api/v1/logout/')
      .set(bearer('garbage'))
      .send({ refresh_token: tokens.refresh })
      .expect(200, { message: 'Logged out successfully' });
    expect((await http().get('/api/v1/profile/').set(bearer(tokens.access)).expect(401)).body).toEqual(SIGN_IN_PLEASE);
  });
});
