import { Controller, Get, HttpCode, Inject, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { forbidden, notFound } from '../domain/errors';
import { Undocumented } from '../http/openapi/route-contract';
import { LocalDiskStorage } from './local-disk-storage';
import { OBJECT_STORAGE, type ObjectStorage } from './object-storage';

const denied = () => forbidden('This link is not valid or has expired.');

/**
 * Answers the local-disk storage's signed URLs (embedded mode), as S3 answers its own:
 * GET an object (with HTTP Range), PUT a part of a multipart upload. The signature is the
 * only credential, so the URL can be handed to a browser or a desktop host.
 */
@Undocumented('signed URLs handed out by the api, not an api of their own')
@Controller('storage')
export class StorageController {
  constructor(@Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage) {}

  @Get('objects')
  object(@Query() query: Record<string, unknown>, @Res() response: Response): void {
    const claims = this.local().verify('objects', query);
    if (!claims?.key) throw denied();
    response.attachment(claims.name ?? 'download');
    // sendFile answers Range requests (206) and sets Content-Length and Accept-Ranges.
    response.sendFile(this.local().pathOf(claims.key), { acceptRanges: true, cacheControl: false, dotfiles: 'allow' }, (error) => {
      if (error && !response.headersSent) response.status(404).json({ message: 'The requested resource was not found.' });
    });
  }

  @Put('parts')
  @HttpCode(200)
  async part(@Query() query: Record<string, unknown>, @Req() request: Request): Promise<{ part: number }> {
    const claims = this.local().verify('parts', query);
    if (!claims?.key || !claims.uploadId || !claims.part) throw denied();
    await this.local().putPart(claims.key, claims.uploadId, Number(claims.part), request);
    return { part: Number(claims.part) };
  }

  private local(): LocalDiskStorage {
    if (!(this.storage instanceof LocalDiskStorage)) throw notFound();
    return this.storage;
  }
}
