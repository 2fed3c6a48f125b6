import { z } from 'zod';
import { integer, text, UUID_PATTERN } from '../common/fields';
import { type ErrorBody, timestamp } from '../http/http.contract';

/**
 * AI models, their files and plan access, downloads and desktop releases (spec sections 2
 * "Admin AI Model Management", 3, 4, 5, 7 "Models" and "Plan and downloads", 8, 9).
 */

/**
 * A plan a model is open to, by its slug: any plan staff made, not only the seeded three.
 * The shape only; the api checks each slug against the billing plans (not archived) when
 * staff set it, so an unknown one is refused with its name.
 */
export const ModelPlan = z.string().max(40, 'Plan slugs are at most 40 characters');
export type ModelPlan = z.output<typeof ModelPlan>;
const modelPlans = z.array(ModelPlan).max(200, 'At most 200 plans');

/** Spec section 9's upload limits. */
export const UPLOAD_LIMITS = {
  maxFileBytes: 10_737_418_240,
  maxTotalBytes: 53_687_091_200,
  extensions: ['.onnx', '.bin', '.safetensors', '.json'],
  defaultVersion: '1.0.0',
} as const;

/** Files above this go through the resumable path (S3 multipart, presigned part URLs). */
export const RESUMABLE_THRESHOLD_BYTES = 64 * 1024 * 1024;

export const uploadMessages = {
  nameRequired: 'Model name is required',
  displayNameRequired: 'Display name is required',
  versionRequired: 'Version is required',
  planRequired: 'At least one plan must be selected',
  fileRequired: 'At least one file must be uploaded',
  missingChecksums: (files: string[]) => `Missing checksums for: ${files.join(', ')}`,
  fileTooLarge: (size: string) => `File size exceeds ${size} limit`,
  fileType: (ext: string) => `File type ${ext} not supported. Accepted: ${UPLOAD_LIMITS.extensions.join(', ')}`,
  duplicate: 'File already added',
  totalTooLarge: (size: string) => `Total size would exceed ${size} limit`,
  checksumMismatch: 'Checksum does not match the file received',
  fileIncomplete: 'The file was not received completely',
} as const;

export const ModelStatus = z.enum(['active', 'processing', 'inactive']);
export type ModelStatus = z.output<typeof ModelStatus>;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/i, 'Checksums must be SHA-256 in hex');

export const ModelFile = z
  .object({
    name: z.string(),
    size: z.number().int(),
    sha256,
    part_index: z
      .number()
      .int()
      .meta({ description: 'Order of the part within the model (0-based): models split into blocks load in this order.' }),
  })
  .meta({ id: 'ModelFile' });
export type ModelFile = z.output<typeof ModelFile>;

/** A model as the console reads it (spec "AI model (admin)"), plus its files. */
export const AdminModel = z
  .object({
    id: z.uuid(),
    name: z.string(),
    display_name: z.string(),
    version: z.string(),
    fileName: z.string().meta({ description: "The first file's name." }),
    fileSize: z.number().int().meta({ description: 'The total size of every file (bytes).' }),
    fileType: z.string(),
    uploadDate: timestamp,
    uploadedBy: z.string(),
    status: ModelStatus,
    allowedPlans: z.array(ModelPlan),
    metadata: z.object({ description: z.string(), parameters: z.string(), architecture: z.string() }),
    files: z.array(ModelFile),
  })
  .meta({ id: 'AdminModel' });
export type AdminModel = z.output<typeof AdminModel>;

/** GET /models/admin/ */
export const AdminModelList = z.object({ models: z.array(AdminModel) }).meta({ id: 'AdminModelList' });
export type AdminModelList = z.output<typeof AdminModelList>;

/** A model's internal name: route parameter and form field alike. */
export const modelName = text('Model name', { max: 100, requiredMessage: uploadMessages.nameRequired });
/** A file's name within a model. */
export const fileName = text('File name', { max: 255 });

/** The multipart form's text fields (the files come as repeated `files` parts). */
export const UploadFields = z.object({
  name: modelName,
  display_name: text('Display name', { max: 200, requiredMessage: uploadMessages.displayNameRequired }),
  description: text('Description', { max: 5000, multiline: true, required: false }).default(''),
  version: text('Version', { max: 40, requiredMessage: uploadMessages.versionRequired }),
  allowed_plans: z.array(ModelPlan, { error: uploadMessages.planRequired }).min(1, uploadMessages.planRequired).max(200),
  checksums: z.record(fileName, sha256),
  parameters: text('Parameters', { max: 40, required: false }).default(''),
  architecture: text('Architecture', { max: 80, required: false }).default(''),
});
export type UploadFields = z.input<typeof UploadFields>;

/** POST /models/admin/upload/ answers this (201). */
export const UploadResponse = z
  .object({
    model_id: z.uuid(),
    model_name: z.string(),
    display_name: z.string(),
    status: ModelStatus,
    total_size: z.number().int(),
    parts_count: z.number().int(),
    allowed_plans: z.array(ModelPlan),
  })
  .meta({ id: 'UploadResponse' });
export type UploadResponse = z.output<typeof UploadResponse>;

/** An upload refused: `validation_errors` per file, or a `message` (the one error body). */
export type UploadError = Pick<ErrorBody, 'message' | 'validation_errors'>;

/** Resumable upload, step 1: POST /models/admin/uploads/ with the model's fields and files. */
export const ResumableUploadStart = UploadFields.omit({ checksums: true }).extend({
  files: z
    .array(
      z.object({
        name: fileName,
        size: integer('File size', { min: 1, max: UPLOAD_LIMITS.maxFileBytes }),
        sha256,
      }),
    )
    .min(1, uploadMessages.fileRequired),
});
export type ResumableUploadStart = z.input<typeof ResumableUploadStart>;

/** The upload's plan: each file in parts of `part_size` bytes (the last one shorter). */
export const ResumableUpload = z
  .object({
    upload_id: z.uuid(),
    model_id: z.uuid(),
    part_size: z.number().int(),
    files: z.array(
      z.object({ name: z.string(), size: z.number().int(), parts: z.number().int(), uploaded_parts: z.array(z.number().int()) }),
    ),
  })
  .meta({ id: 'ResumableUpload' });
export type ResumableUpload = z.output<typeof ResumableUpload>;

/** Step 2: POST /models/admin/uploads/{id}/parts/ {file, part} -> a presigned PUT url for it. */
export const PartUrlRequest = z.object({ file: fileName, part: integer('Part', { min: 1, max: 10_000 }) });
export const PartUrl = z.object({ url: z.string(), expires_at: timestamp }).meta({ id: 'PartUrl' });
export type PartUrl = z.output<typeof PartUrl>;

/** DELETE /models/admin/uploads/{id}/: the upload that was cancelled. */
export const UploadAborted = z.object({ upload_id: z.string() }).meta({ id: 'UploadAborted' });

/** Access: PUT /models/admin/{id}/access/ {allowed_plans}; bulk: POST /models/admin/access/ {matrix}. */
export const AccessUpdate = z.object({ allowed_plans: modelPlans });
/**
 * Keys are `${modelId}:${planId}` (spec "Access matrix"); models left out keep their access,
 * and so do the plans left out of a model's keys (an archived plan the matrix no longer shows).
 */
export const AccessMatrix = z.object({
  matrix: z.record(
    z.string().refine((key) => {
      const [modelId = '', plan, ...rest] = key.split(':');
      return UUID_PATTERN.test(modelId) && ModelPlan.min(1).safeParse(plan).success && rest.length === 0;
    }, 'Keys must be "<model id>:<plan>"'),
    z.boolean(),
  ),
});

export const ModelStatusUpdate = z.object({ status: z.enum(['active', 'inactive']) });

/** GET /models/{name}/manifest/: every file a host must download, verify and load. */
export const ModelManifest = z
  .object({
    model_id: z.uuid(),
    name: z.string(),
    display_name: z.string(),
    version: z.string(),
    total_size: z.number().int(),
    files: z.array(ModelFile.extend({ download_path: z.string() })),
  })
  .meta({ id: 'ModelManifest' });
export type ModelManifest = z.output<typeof ModelManifest>;

/** GET /models/{name}/files/{file}/download/: a short-lived URL that honours HTTP Range. */
export const DownloadLink = z
  .object({ url: z.string(), expires_at: timestamp, size: z.number().int(), sha256 })
  .meta({ id: 'DownloadLink' });
export type DownloadLink = z.output<typeof DownloadLink>;

/** The platforms the desktop app is built for (macOS is not yet). */
export const DesktopPlatform = z.enum(['windows', 'linux']);
export type DesktopPlatform = z.output<typeof DesktopPlatform>;

/** The kinds of file a desktop release can be: a Windows installer or archive, a Linux package or archive. */
export const DesktopFormat = z.enum(['exe', 'zip', 'deb', 'tar.gz']);
export type DesktopFormat = z.output<typeof DesktopFormat>;

/**
 * Each format's platform, extension and label, in the order customers are offered them
 * (within a platform, the first is the one its main button downloads).
 */
export const DESKTOP_FORMATS: Readonly<Record<DesktopFormat, { platform: DesktopPlatform; extension: string; label: string }>> = {
  exe: { platform: 'windows', extension: '.exe', label: 'Windows installer' },
  zip: { platform: 'windows', extension: '.zip', label: 'Windows archive (.zip)' },
  deb: { platform: 'linux', extension: '.deb', label: 'Linux (.deb)' },
  'tar.gz': { platform: 'linux', extension: '.tar.gz', label: 'Linux archive (.tar.gz)' },
};
export const DESKTOP_FORMAT_ORDER: readonly DesktopFormat[] = ['exe', 'zip', 'deb', 'tar.gz'];
export const DESKTOP_PLATFORM_NAMES: Readonly<Record<DesktopPlatform, string>> = { windows: 'Windows', linux: 'Linux' };

/** The format a file's name says (case aside), or null for any other kind of file. */
export function desktopFormatOf(fileName: string): DesktopFormat | null {
  const name = fileName.toLowerCase();
  return DESKTOP_FORMAT_ORDER.find((format) => name.endsWith(DESKTOP_FORMATS[format].extension)) ?? null;
}

/** The name a customer saves a release file under (the spec's form): Meshwork-Desktop-v{version}.{ext}. */
export function desktopFileName(version: string, format: DesktopFormat): string {
  return `Meshwork-Desktop-v${version}${DESKTOP_FORMATS[format].extension}`;
}

/** What a file of a platform may be, for messages: "a .exe or .zip file". */
export function desktopExtensionsOf(platform: DesktopPlatform): string {
  const extensions = DESKTOP_FORMAT_ORDER.filter((f) => DESKTOP_FORMATS[f].platform === platform).map((f) => DESKTOP_FORMATS[f].extension);
  return `a ${extensions.join(' or ')} file`;
}

/** GET /downloads/installation-guide/ (public): how to install the desktop host, per platform. */
export const InstallationGuide = z
  .object({
    title: z.string(),
    steps: z.array(z.string()),
    platforms: z
      .array(z.object({ platform: DesktopPlatform, title: z.string(), steps: z.array(z.string()) }))
      .meta({ description: 'The steps for each platform the app is built for.' }),
  })
  .meta({ id: 'InstallationGuide' });
export type InstallationGuide = z.output<typeof InstallationGuide>;

/** One file customers can download now. */
export const DesktopDownload = z
  .object({
    platform: DesktopPlatform,
    format: DesktopFormat,
    label: z.string().meta({ description: 'For a button or list: "Windows installer", "Linux (.deb)", "Linux archive (.tar.gz)".' }),
    version: z.string(),
    file_name: z.string().meta({ description: 'The name it is saved under: Meshwork-Desktop-v{version}.{exe|zip|deb|tar.gz}.' }),
    size: z.number().int().meta({ description: 'Bytes.' }),
    download_url: z.string(),
  })
  .meta({ id: 'DesktopDownload' });
export type DesktopDownload = z.output<typeof DesktopDownload>;

/** GET /downloads/desktop-app-info/?platform= */
export const DesktopAppInfoQuery = z.object({
  platform: DesktopPlatform.optional().meta({
    description: 'Whose best file `version` and `download_url` describe (Windows when absent).',
  }),
});

/** GET /downloads/desktop-app-info/ */
export const DesktopAppInfo = z
  .object({
    version: z.string().meta({ description: "The best file's version, for the platform asked (else any platform's)." }),
    download_url: z.string(),
    downloads: z
      .array(DesktopDownload)
      .meta({ description: 'Every file available now, in this order: Windows .exe, .zip, Linux .deb, .tar.gz.' }),
  })
  .meta({ id: 'DesktopAppInfo' });
export type DesktopAppInfo = z.output<typeof DesktopAppInfo>;

/** One file of a desktop release, in the console. */
export const DesktopReleaseFile = z
  .object({
    platform: DesktopPlatform,
    format: DesktopFormat.nullable().meta({ description: 'Null for a file of another kind (uploaded before platforms): never offered.' }),
    label: z.string(),
    fileName: z.string(),
    size: z.number().int().meta({ description: 'Bytes.' }),
    sha256: z.string(),
    current: z.boolean().meta({ description: 'Whether customers get this file now for its platform and format.' }),
  })
  .meta({ id: 'DesktopReleaseFile' });
export type DesktopReleaseFile = z.output<typeof DesktopReleaseFile>;

/**
 * A desktop release in the console (spec "Desktop app version"); fileSize in MB, of all its
 * files. `builtIn`: the release this installation built itself (read-only, id "built-in").
 */
export const DesktopRelease = z
  .object({
    id: z.string(),
    version: z.string(),
    releaseDate: timestamp,
    fileSize: z.number(),
    isActive: z.boolean(),
    releaseNotes: z.string(),
    downloadCount: z.number().int(),
    isStable: z.boolean(),
    builtIn: z.boolean(),
    files: z.array(DesktopReleaseFile),
    skipped: z
      .array(z.object({ platform: DesktopPlatform, reason: z.string() }))
      .meta({ description: 'Built-in only: the platforms the build left out, and why.' }),
  })
  .meta({ id: 'DesktopRelease' });
export type DesktopRelease = z.output<typeof DesktopRelease>;

/** A desktop release's version: route parameter and form field alike. */
export const releaseVersion = text('Version', { max: 40 }).regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/, 'Version must look like 2.0.3');

/**
 * The upload form's text fields, sent before the file. `platform` may be left out: the
 * file's extension then says it. `publish`: stable and active at once.
 */
export const ReleaseFields = z.object({
  version: releaseVersion,
  release_notes: text('Release notes', { max: 10_000, multiline: true, required: false }).default(''),
  platform: z.enum(DesktopPlatform.options, { error: 'Platform must be windows or linux' }).optional(),
  publish: z
    .enum(['true', 'false'], { error: 'Publish must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

/** Publish: both true; withdraw: is_active false. */
export const ReleaseUpdate = z.object({ is_stable: z.boolean(), is_active: z.boolean() }).partial();

/**
 * The index `npm start` writes beside the desktop app it builds (DESKTOP_RELEASES_DIR/releases.json):
 * the files, each named within that folder, and the platforms it could not build.
 */
export const DesktopReleasesIndex = z.object({
  version: releaseVersion,
  origin: z.string().nullable().optional().meta({ description: 'The site the files name as theirs; null: none.' }),
  files: z.array(
    z.object({
      platform: DesktopPlatform,
      file: z.string().min(1).max(255),
      size: z.number().int().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/i),
    }),
  ),
  /** What the build left out; read leniently (a long reason is cut, a bad list ignored), as it only informs. */
  skipped: z
    .array(z.object({ platform: DesktopPlatform, reason: z.string().transform((reason) => reason.slice(0, 1000)) }))
    .default([])
    .catch([]),
});
export type DesktopReleasesIndex = z.output<typeof DesktopReleasesIndex>;

/** A download the user made (spec "Download record"); fileSize in bytes. */
export const DownloadRecord = z
  .object({
    id: z.string(),
    kind: z.enum(['desktop', 'model']),
    version: z.string().meta({ description: "The desktop version, or the model's `name@version`." }),
    downloadDate: timestamp,
    status: z.enum(['completed', 'downloading', 'failed']),
    fileSize: z.number().int(),
  })
  .meta({ id: 'DownloadRecord' });
export type DownloadRecord = z.output<typeof DownloadRecord>;

/** GET /downloads/history/ */
export const DownloadHistory = z
  .object({ downloads: z.array(DownloadRecord), total: z.number().int(), last_30_days: z.number().int() })
  .meta({ id: 'DownloadHistory' });
export type DownloadHistory = z.output<typeof DownloadHistory>;

/** An audit entry read from the event log (spec "Admin audit logging"). */
export const CatalogAuditEntry = z
  .object({
    id: z.string(),
    action: z.enum(['UPLOAD', 'ACCESS', 'BULK_UPDATE_ACCESS', 'DELETE', 'STATUS']),
    resource: z.enum(['model', 'release']),
    resourceId: z.string(),
    details: z.string(),
    oldData: z.unknown(),
    newData: z.unknown(),
    timestamp,
    adminId: z.string().nullable(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'CatalogAuditEntry' });
export type CatalogAuditEntry = z.output<typeof CatalogAuditEntry>;
