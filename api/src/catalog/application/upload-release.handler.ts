import { AsyncResource } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import busboy from 'busboy';
import type { Request } from 'express';
import { DESKTOP_FORMATS, type DesktopRelease, ReleaseFields, UPLOAD_LIMITS } from '@meshwork/contracts';
import { DomainError, ruleBroken } from '../../platform/domain/errors';
import { ZodPipe } from '../../platform/http/validation';
import { CatalogContext, storageUnavailable } from './catalog-context';
import { formatFor, platformOf } from '../domain/release.decider';
import { DesktopReleases } from './desktop-releases';

/** busboy could not read the body: a part header it refuses, or a body that ends inside a part. */
const unreadableForm = () => ruleBroken('The form could not be read: send the release as multipart/form-data, the file last.');

export class UploadRelease {
  constructor(
    /** The multipart body: version, release_notes, platform and publish, then the file. */
    readonly request: Request,
    readonly at: Date,
  ) {}
}

/**
 * A file of a desktop release: version, notes, platform (else the extension says it) and
 * whether to publish at once first, then the file, streamed to storage and hashed on the way.
 * A version holds one file per platform and format; the file is recorded only once stored,
 * and a failed write or a refused record leaves nothing (now, or by the sweeper). Answers
 * the release as the console shows it.
 */
@CommandHandler(UploadRelease)
export class UploadReleaseHandler implements ICommandHandler<UploadRelease, DesktopRelease> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly releases: DesktopReleases,
  ) {}

  execute({ request, at }: UploadRelease): Promise<DesktopRelease> {
    return new Promise((resolve, reject) => {
      const fields: Record<string, string> = {};
      let done: Promise<DesktopRelease> | null = null;
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: request.headers, limits: { files: 1, fileSize: UPLOAD_LIMITS.maxFileBytes, fieldSize: 64 * 1024 } });
      } catch {
        reject(ruleBroken('Send the release as multipart/form-data.'));
        return;
      }
      parser.on('field', (name, value) => (fields[name] = value));
      // Bound to the request's async context, so the release's events name the staff member.
      parser.on(
        'file',
        AsyncResource.bind((_field: string, stream: Readable & { truncated?: boolean }, info: busboy.FileInfo) => {
          done = this.store(fields, path.basename(info.filename ?? 'installer.exe'), stream, at);
          done.catch(() => stream.resume());
        }),
      );
      parser.on(
        'close',
        AsyncResource.bind(() => {
          if (!done) return reject(ruleBroken('Choose the release file.', 'file'));
          done.then(resolve, reject);
        }),
      );
      parser.on('error', () => reject(unreadableForm()));
      request.pipe(parser);
    });
  }

  private async store(fields: Record<string, string>, fileName: string, stream: NodeJS.ReadableStream, at: Date): Promise<DesktopRelease> {
    // Listen before the first await: a body cut off inside the file errors the stream at once,
    // and an 'error' nobody listens to takes the process down.
    let broken: Error | null = null;
    stream.on('error', (error: Error) => (broken = error));
    const { version, release_notes: releaseNotes, platform: named, publish } = new ZodPipe(ReleaseFields).transform(fields);
    const platform = named ?? platformOf(fileName);
    // Refused before a byte is stored: a file that does not suit its platform, or one the version has.
    const format = formatFor(platform, fileName);
    const { state } = await this.catalog.releases.load(version);
    if (state.status === 'uploaded' && state.files.some((f) => f.platform === platform && f.format === format))
      throw ruleBroken(`Version ${version} already has a ${DESKTOP_FORMATS[format].label} file.`, 'file');
    // A key of its own, so a concurrent upload of the same file can never overwrite (or discard) this one.
    const objectKey = `releases/${version}/${randomUUID()}/${fileName}`;
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        hash.update(chunk);
        size += chunk.length;
        next(null, chunk);
      },
    });
    stream.on('error', (error: Error) => measure.destroy(error));
    if (broken) throw unreadableForm();
    await this.catalog.writing(`release-${version}`, [objectKey]);
    try {
      await this.catalog.storage.put(objectKey, stream.pipe(measure));
    } catch (error) {
      await this.catalog.discard([objectKey]);
      throw error instanceof DomainError ? error : storageUnavailable();
    }
    let position: number;
    try {
      ({ position } = await this.catalog.releases.execute(version, {
        type: 'UploadRelease',
        at,
        version,
        releaseNotes,
        objectKey,
        fileName,
        size,
        sha256: hash.digest('hex'),
        platform,
        publish,
      }));
    } catch (error) {
      await this.catalog.discard([objectKey]); // recorded nowhere: nobody will ask for it
      throw error;
    }
    await this.catalog.kept([objectKey]);
    await this.catalog.caughtUp(position);
    return (await this.releases.release(version))!;
  }
}
