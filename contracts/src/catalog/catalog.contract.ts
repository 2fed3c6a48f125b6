import { z } from 'zod';
import { integer, text, UUID_PATTERN } from '../common/fields';

/**
 * AI models, their files and plan access, downloads and desktop releases (spec sections 2
 * "Admin AI Model Management", 3, 4, 5, 7 "Models" and "Plan and downloads", 8, 9).
 */

/** The plans a model can be opened to; fixed, as the console's matrix is. */
export const MODEL_PLANS = ['free', 'pro', 'enterprise'] as const;
export type ModelPlan = (typeof MODEL_PLANS)[number];
export const MODEL_PLAN_NAMES: Record<ModelPlan, string> = { free: 'Free Plan', pro: 'Pro Plan', enterprise: 'Enterprise Plan' };

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

export type ModelStatus = 'active' | 'processing' | 'inactive';

export interface ModelFile {
  name: string;
  size: number;
  sha256: string;
  /** Order of the part within the model (0-based): models split into blocks load in this order. */
  part_index: number;
}

/** A model as the console reads it (spec "AI model (admin)"), plus its files. */
export interface AdminModel {
  id: string;
  name: string;
  display_name: string;
  version: string;
  /** The first file's name, and the total size of every file (bytes). */
  fileName: string;
  fileSize: number;
  fileType: string;
  uploadDate: string;
  uploadedBy: string;
  status: ModelStatus;
  allowedPlans: ModelPlan[];
  metadata: { description: string; parameters: string; architecture: string };
  files: ModelFile[];
}

/** GET /models/admin/ */
export interface AdminModelList {
  models: AdminModel[];
}

/** A model's internal name: route parameter and form field alike. */
export const modelName = text('Model name', { max: 100, requiredMessage: uploadMessages.nameRequired });
/** A file's name within a model. */
export const fileName = text('File name', { max: 255 });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/i, 'Checksums must be SHA-256 in hex');

/** The multipart form's text fields (the files come as repeated `files` parts). */
export const UploadFields = z.object({
  name: modelName,
  display_name: text('Display name', { max: 200, requiredMessage: uploadMessages.displayNameRequired }),
  description: text('Description', { max: 5000, multiline: true, required: false }).default(''),
  version: text('Version', { max: 40, requiredMessage: uploadMessages.versionRequired }),
  allowed_plans: z.array(z.enum(MODEL_PLANS), { error: uploadMessages.planRequired }).min(1, uploadMessages.planRequired),
  checksums: z.record(fileName, sha256),
  parameters: text('Parameters', { max: 40, required: false }).default(''),
  architecture: text('Architecture', { max: 80, required: false }).default(''),
});
export type UploadFields = z.input<typeof UploadFields>;

/** POST /models/admin/upload/ answers this (201). */
export interface UploadResponse {
  model_id: string;
  model_name: string;
  display_name: string;
  status: ModelStatus;
  total_size: number;
  parts_count: number;
  allowed_plans: ModelPlan[];
}

/** An upload refused: `validation_errors` per file, or a `message`. */
export interface UploadError {
  message: string;
  validation_errors?: { file: string; error: string }[];
}

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
export interface ResumableUpload {
  upload_id: string;
  model_id: string;
  part_size: number;
  files: { name: string; size: number; parts: number; uploaded_parts: number[] }[];
}

/** Step 2: POST /models/admin/uploads/{id}/parts/ {file, part} -> a presigned PUT url for it. */
export const PartUrlRequest = z.object({ file: fileName, part: integer('Part', { min: 1, max: 10_000 }) });
export interface PartUrl {
  url: string;
  expires_at: string;
}

/** Access: PUT /models/admin/{id}/access/ {allowed_plans}; bulk: POST /models/admin/access/ {matrix}. */
export const AccessUpdate = z.object({ allowed_plans: z.array(z.enum(MODEL_PLANS)) });
/** Keys are `${modelId}:${planId}` (spec "Access matrix"); models left out keep their access. */
export const AccessMatrix = z.object({
  matrix: z.record(
    z.string().refine((key) => {
      const [modelId = '', plan, ...rest] = key.split(':');
      return UUID_PATTERN.test(modelId) && (MODEL_PLANS as readonly string[]).includes(plan ?? '') && rest.length === 0;
    }, 'Keys must be "<model id>:<plan>"'),
    z.boolean(),
  ),
});

export const ModelStatusUpdate = z.object({ status: z.enum(['active', 'inactive']) });

/** GET /models/{name}/manifest/: every file a host must download, verify and load. */
export interface ModelManifest {
  model_id: string;
  name: string;
  display_name: string;
  version: string;
  total_size: number;
  files: (ModelFile & { download_path: string })[];
}

/** GET /models/{name}/files/{file}/download/: a short-lived URL that honours HTTP Range. */
export interface DownloadLink {
  url: string;
  expires_at: string;
  size: number;
  sha256: string;
}

/** GET /downloads/installation-guide/ (public): how to install the desktop host. */
export interface InstallationGuide {
  title: string;
  steps: string[];
}

/** GET /downloads/desktop-app-info/ */
export interface DesktopAppInfo {
  version: string;
  download_url: string;
}

/** A desktop release in the console (spec "Desktop app version"); fileSize in MB. */
export interface DesktopRelease {
  id: string;
  version: string;
  releaseDate: string;
  fileSize: number;
  isActive: boolean;
  releaseNotes: string;
  downloadCount: number;
  isStable: boolean;
}

/** A desktop release's version: route parameter and form field alike. */
export const releaseVersion = text('Version', { max: 40 }).regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/, 'Version must look like 2.0.3');

export const ReleaseFields = z.object({
  version: releaseVersion,
  release_notes: text('Release notes', { max: 10_000, multiline: true, required: false }).default(''),
});

export const ReleaseUpdate = z.object({ is_stable: z.boolean(), is_active: z.boolean() }).partial();

/** A download the user made (spec "Download record"); fileSize in bytes. */
export interface DownloadRecord {
  id: string;
  kind: 'desktop' | 'model';
  /** The desktop version, or the model's `name@version`. */
  version: string;
  downloadDate: string;
  status: 'completed' | 'downloading' | 'failed';
  fileSize: number;
}

/** GET /downloads/history/ */
export interface DownloadHistory {
  downloads: DownloadRecord[];
  total: number;
  last_30_days: number;
}

/** An audit entry read from the event log (spec "Admin audit logging"). */
export interface CatalogAuditEntry {
  id: string;
  action: 'UPLOAD' | 'ACCESS' | 'BULK_UPDATE_ACCESS' | 'DELETE' | 'STATUS';
  resource: 'model' | 'release';
  resourceId: string;
  details: string;
  oldData: unknown;
  newData: unknown;
  timestamp: string;
  adminId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}
