import type { Readable } from 'node:stream';
import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { DesktopAppInfo, DownloadHistory, InstallationGuide } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { notFound } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { CatalogQueries, type ReleaseRow } from '../application/catalog-queries';
import { DownloadDesktopApp } from '../application/download-desktop-app.handler';

/**
 * The desktop installer and the user's downloads (spec section 7, "Plan and downloads").
 * Which version is current, and how to install it, are public (the site's /download page
 * shows them to visitors); the installer and the history need a signed-in user.
 */
@Tag('downloads')
@Controller('downloads')
export class DownloadsController {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly commands: CommandBus,
  ) {}

  @Get('desktop-app-info')
  @Route({ summary: 'The current desktop version (public).', response: DesktopAppInfo, errors: [404] })
  async desktopAppInfo(): Promise<DesktopAppInfo> {
    const release = await this.queries.currentRelease();
    if (!release) throw notFound('No version available for download');
    return { version: release.version, download_url: `/api/v1/downloads/desktop-app/${encodeURIComponent(release.file_name)}` };
  }

  @Get('desktop-app/:name')
  @UseGuards(AuthGuard)
  @Route({
    summary:
      'Streams the current installer as Meshwork-Desktop-v{version} with the uploaded file’s extension (.exe, .zip, .tar.gz), when the plan allows downloads.',
    file: 'application/octet-stream',
    errors: [403, 503],
  })
  async desktopApp(@CurrentCaller() caller: Caller, @Res() response: Response): Promise<void> {
    const { release, body } = await this.commands.execute<DownloadDesktopApp, { release: ReleaseRow; body: Readable }>(
      new DownloadDesktopApp(caller.userId, new Date()),
    );
    response.attachment(`Meshwork-Desktop-v${release.version}${installerExtension(release.file_name)}`);
    response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', release.size);
    body.on('error', () => response.destroy());
    body.pipe(response);
  }

  @Get('installation-guide')
  @Route({ response: InstallationGuide })
  installationGuide(): InstallationGuide {
    return {
      title: 'Installing the Meshwork desktop host',
      steps: [
        'Download the installer from the Download page (/download) or your dashboard.',
        'Run it on the machine that will host your network and sign in with your Meshwork account.',
        'Download the models your plan allows from the Models tab.',
        'Create a network and share its join code with the devices on your local network.',
        'On each client device, install Meshwork and join with the code.',
      ],
    };
  }

  @Get('history')
  @UseGuards(AuthGuard)
  @Route({ response: DownloadHistory })
  history(@CurrentCaller() caller: Caller): Promise<DownloadHistory> {
    return this.queries.downloadHistory(caller.userId, new Date());
  }
}

/** The uploaded file's kind, kept in the product's name for it: an archive must not arrive as .exe. */
function installerExtension(fileName: string): string {
  return /(\.tar\.gz|\.[A-Za-z0-9]{1,8})$/.exec(fileName)?.[1] ?? '.exe';
}
