import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import type { z } from 'zod';
import {
  DesktopAppInfo,
  DesktopAppInfoQuery,
  desktopFileName,
  type DesktopFormat,
  DownloadHistory,
  InstallationGuide,
} from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { notFound } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { CatalogQueries } from '../application/catalog.query';
import { DesktopReleases } from '../application/desktop-releases';
import { type DesktopAppFile, DownloadDesktopApp } from '../application/download-desktop-app.handler';

/**
 * The desktop app and the user's downloads (spec section 7, "Plan and downloads"). Which
 * files are current, and how to install them, are public (the site's /download page shows
 * them to visitors); the files and the history need a signed-in user.
 */
@Tag('downloads')
@Controller('downloads')
export class DownloadsController {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly releases: DesktopReleases,
    private readonly commands: CommandBus,
  ) {}

  @Get('desktop-app-info')
  @Route({
    summary:
      'The desktop files available now (public): `downloads` lists each (Windows .exe and .zip, Linux .deb and .tar.gz); `version` and `download_url` are the best one for `platform` (Windows when absent), else any platform’s. A staff release published for a platform and format takes the place of the one this installation built. 404 only when there is none at all.',
    response: DesktopAppInfo,
    errors: [404],
  })
  async desktopAppInfo(@Query(new ZodPipe(DesktopAppInfoQuery)) query: z.output<typeof DesktopAppInfoQuery>): Promise<DesktopAppInfo> {
    const info = await this.releases.info(query.platform);
    if (!info) throw notFound('No version available for download');
    return info;
  }

  @Get('desktop-app/:name')
  @UseGuards(AuthGuard)
  @Route({
    summary:
      'Streams the current desktop file of the kind the name’s extension asks for (.exe, .zip, .deb, .tar.gz), saved as Meshwork-Desktop-v{version} with that extension, when the plan allows downloads; 404 when no such file is available.',
    file: 'application/octet-stream',
    errors: [403, 503],
  })
  async desktopApp(@CurrentCaller() caller: Caller, @Param('name') name: string, @Res() response: Response): Promise<void> {
    const file = await this.commands.execute<DownloadDesktopApp, DesktopAppFile>(new DownloadDesktopApp(caller.userId, name, new Date()));
    response.attachment(file.fileName);
    response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', file.size);
    file.body.on('error', () => response.destroy());
    file.body.pipe(response);
  }

  @Get('installation-guide')
  @Route({
    summary: 'How to install the desktop host: the steps for everyone, then each platform’s, naming the current files.',
    response: InstallationGuide,
  })
  async installationGuide(): Promise<InstallationGuide> {
    const offers = await this.releases.offers();
    const nameOf = (format: DesktopFormat) => {
      const offer = offers.find((o) => o.format === format);
      // None offered now: the name's shape, its version left open.
      return offer ? desktopFileName(offer.version, format) : desktopFileName('…', format);
    };
    return {
      title: 'Installing the Meshwork desktop host',
      steps: [
        'Download the app for your computer from the Download page (/download) or your dashboard: Windows or Linux (macOS is not yet available).',
        'Install it as the steps for your platform say, open Meshwork and sign in with your Meshwork account.',
        'Download the models your plan allows from the Models tab.',
        'Create a network and share its join code with the devices on your local network.',
        'On each client device, install Meshwork and join with the code.',
      ],
      platforms: [
        {
          platform: 'windows',
          title: 'Windows',
          steps: [
            `Run the installer, \`${nameOf('exe')}\`. It installs for your account only: no administrator rights are needed.`,
            'Choose the shortcuts you want (Start menu, desktop, start at sign-in), then open Meshwork from the Start menu.',
            `With the archive instead: unpack \`${nameOf('zip')}\` and run \`meshwork-host\` in the folder it makes.`,
          ],
        },
        {
          platform: 'linux',
          title: 'Linux',
          steps: [
            `Debian or Ubuntu: install the package with \`sudo apt install ./${nameOf('deb')}\`, then open Meshwork from your applications menu.`,
            `Any other distribution: unpack the archive with \`tar -xzf ${nameOf('tar.gz')}\` and run \`meshwork-host\` in the folder it makes. Nothing else needs installing.`,
          ],
        },
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
