import 'reflect-metadata';
import { type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import { AppModule } from './app.module';
import { STRIPE_WEBHOOK_PATH } from './billing/http/stripe-webhook.controller';
import { type AppConfig, ConfigError, loadConfig } from './platform/config/config';
import { bodyErrorsMiddleware } from './platform/http/body-errors.middleware';
import { answerClientErrors } from './platform/http/client-error';
import { correlationMiddleware } from './platform/http/correlation.middleware';
import { methodNotAllowed } from './platform/http/method-not-allowed.middleware';
import { openApiDocument } from './platform/http/openapi/openapi-document';
import { routeTable } from './platform/http/openapi/route-table';
import { securityHeaders } from './platform/http/security-headers';
import { serveSites } from './platform/http/static-sites';
import { compressAnswers } from './platform/http/compress-answers';
import { logger } from './platform/logging/logger';
import { WEBHOOK_PAYLOADS } from '@meshwork/contracts';

export const API_PREFIX = 'api/v1';

/**
 * Builds the api on Express. Express rather than Fastify: the spec's multipart uploads,
 * passport strategies and static hosting all have first-class Express support in Nest,
 * and the event store, not HTTP parsing, is where the time goes.
 */
export async function createApp(config: AppConfig): Promise<INestApplication> {
  logger.level = config.LOG_LEVEL;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false, logger: ['error', 'warn'] });
  answerClientErrors(app.getHttpServer());
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');
  app.use(securityHeaders(config, `/${API_PREFIX}/docs`));
  // Api answers are per caller and never revalidated; hashing each body for an ETag is waste.
  // (The static sites keep theirs: express.static sets its own.)
  app.set('etag', false);
  app.use(correlationMiddleware);
  app.use(compressAnswers);
  const routes = routeTable(app, API_PREFIX);
  app.use(methodNotAllowed(routes, API_PREFIX));
  // Stripe signs the exact bytes it sent: its webhook keeps the raw body.
  app.use(`/${API_PREFIX}/${STRIPE_WEBHOOK_PATH}`, express.raw({ type: '*/*', limit: config.MAX_JSON_BODY }));
  app.use(express.json({ limit: config.MAX_JSON_BODY }));
  app.use(express.urlencoded({ extended: false, limit: config.MAX_JSON_BODY }));
  app.use(bodyErrorsMiddleware);
  app.setGlobalPrefix(API_PREFIX);

  const openApi = openApiDocument(
    routes,
    {
      title: 'Meshwork API',
      description: 'Accounts, plans, payments, AI models and networks. Errors share one body: {message, errors?, non_field_errors?}.',
      version: '1',
    },
    WEBHOOK_PAYLOADS,
  );
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, openApi, { jsonDocumentUrl: `${API_PREFIX}/openapi.json` });

  serveSites(app.getHttpAdapter().getInstance(), config);
  await app.init();
  return app;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
  closeOnSignals(app);
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  logger.info({ url }, 'Meshwork is running');
  console.log(`\n  Meshwork is running at ${url}/\n  Staff console: ${url}/admin/\n  System status: ${url}/api/v1/health/system-status/\n`);
}

/**
 * SIGINT, SIGTERM, SIGHUP, or the end of the launcher that started us with an IPC channel
 * (`npm start`, however it ended): stop taking requests, stop the runners, close the
 * database, exit 0. Later signals are ignored rather than left to their default, which
 * would kill the process mid-shutdown: Ctrl-C reaches both the launcher and the api, and
 * the launcher passes it on.
 */
export function closeOnSignals(app: { close(): Promise<void> }): void {
  let closing = false;
  const close = (reason: string) => {
    if (closing) return;
    closing = true;
    logger.info({ reason }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => close(signal));
  if (process.send) process.once('disconnect', () => close('launcher ended'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else logger.error({ err: error }, 'Meshwork failed to start');
    process.exit(1);
  });
}
