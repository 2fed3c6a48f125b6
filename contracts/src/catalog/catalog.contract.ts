import { z } from 'zod';

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

/** The multipart form's text fields (the files come as repeated `files` parts). */
export const UploadFields = z.object({
  name: z.string({ error: uploadMessages.nameRequired }).trim().min(1, uploadMessages.nameRequired).max(100),
  display_name: z.string({ error: uploadMessages.displayNameRequired }).trim().min(1, uploadMessages.displayNameRequired).max(200),
  description: z.string().trim().max(5000).default(''),
  version: z.string({ error: uploadMessages.versionRequired }).trim().min(1, uploadMessages.versionRequired).max(40),
  allowed_plans: z.array(z.enum(MODEL_PLANS), { error: uploadMessages.planRequired }).min(1, uploadMessages.planRequired),
  checksums: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/i, 'Checksums must be SHA-256 in hex')),
  parameters: z.string().trim().max(40).default(''),
  architecture: z.string().trim().max(80).default(''),
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
        name: z.string().trim().min(1).max(255),
        size: z.number().int().min(1),
        sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'Checksums must be SHA-256 in hex'),
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
export const PartUrlRequest = z.object({ file: z.string().min(1), part: z.number().int().min(1).max(10_000) });
export interface PartUrl {
  url: string;
  expires_at: string;
}

/** Access: PUT /models/admin/{id}/access/ {allowed_plans}; bulk: POST /models/admin/access/ {matrix}. */
export const AccessUpdate = z.object({ allowed_plans: z.array(z.enum(MODEL_PLANS)) });
/** Keys are `${modelId}:${planId}` (spec "Access matrix"); models left out keep their access. */
export const AccessMatrix = z.object({ matrix: z.record(z.string().regex(/^[^:]+:(free|pro|enterprise)$/), z.boolean()) });

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

export const ReleaseFields = z.object({
  version: z
    .string({ error: 'Version is required' })
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, 'Version must look like 2.0.3'),
  release_notes: z.string().trim().max(10_000).default(''),
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
