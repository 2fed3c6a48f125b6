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

/** GET /downloads/installation-guide/ (public): how to install the desktop host. */
export const InstallationGuide = z.object({ title: z.string(), steps: z.array(z.string()) }).meta({ id: 'InstallationGuide' });
export type InstallationGuide = z.output<typeof InstallationGuide>;

/** GET /downloads/desktop-app-info/ */
export const DesktopAppInfo = z.object({ version: z.string(), download_url: z.string() }).meta({ id: 'DesktopAppInfo' });
export type DesktopAppInfo = z.output<typeof DesktopAppInfo>;

/** A desktop release in the console (spec "Desktop app version"); fileSize in MB. */
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
  })
  .meta({ id: 'DesktopRelease' });
export type DesktopRelease = z.output<typeof DesktopRelease>;

/** A desktop release's version: route parameter and form field alike. */
export const releaseVersion = text('Version', { max: 40 }).regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/, 'Version must look like 2.0.3');

export const ReleaseFields = z.object({
  version: releaseVersion,
  release_notes: text('Release notes', { max: 10_000, multiline: true, required: false }).default(''),
});

export const ReleaseUpdate = z.object({ is_stable: z.boolean(), is_active: z.boolean() }).partial();

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
