import { type FieldDef, type ResourceDef, type UploadedFile } from '@console/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, AuthUser } from '../context.js';
import { badRequest } from '../errors.js';
import { brokenMultipart, UPLOAD_MAX_BYTES, type UploadKind, UPLOADS } from '../uploads.js';

type Row = Record<string, unknown>;

/** text parts a multipart submit may carry (a record's fields and the Avue form's display copies) */
const MAX_TEXT_PARTS = 200;

/**
 * The multipart submit of a resource with file or image fields (api.md §2: products, models, explain
 * documents): the record's fields come as text parts, a file part named as a file field (or "file" / "image",
 * BladeX's names) is stored through the upload service, checked by content (an image field takes images only),
 * and the field takes its link. A field without a file part is left as it is, so an update keeps the stored file.
 */
export function multipartSubmit(ctx: AppContext, def: ResourceDef, mayUpload: (user: AuthUser, body: Row) => Promise<void>) {
  const fields = Object.entries(def.fields).filter(([, f]) => f.type === 'file' || f.type === 'image') as Array<[string, FieldDef]>;
  const kindOf = (f: FieldDef): UploadKind => (f.type === 'image' ? 'image' : 'file');
  const firstOf = (type: 'file' | 'image') => fields.find(([, f]) => f.type === type)?.[0];
  const fieldFor = (partName: string): string | undefined => {
    if (fields.some(([n]) => n === partName)) return partName;
    if (partName === 'file') return firstOf('file') ?? firstOf('image');
    if (partName === 'image') return firstOf('image') ?? firstOf('file');
    return undefined;
  };
  const largest = fields.length ? Math.max(...fields.map(([, f]) => UPLOAD_MAX_BYTES[kindOf(f)])) : 0;

  return {
    fields,
    /** the multipart parser's limits: the largest file a field takes, one file a field */
    limits: { fileSize: largest, files: Math.max(1, fields.length), fields: MAX_TEXT_PARTS, parts: MAX_TEXT_PARTS + fields.length },

    /** the body as a record: text parts as they are, each file stored and named by its link (pushed to `uploaded`) */
    async read(req: FastifyRequest, user: AuthUser, uploaded: UploadedFile[]): Promise<Row> {
      const uploads = ctx.services.find(UPLOADS);
      if (!uploads) throw new Error('multipart submit: the server has no upload service');
      const body: Row = {};
      try {
        for await (const part of req.parts({ limits: { fileSize: largest } })) {
          if (part.type === 'field') {
            body[part.fieldname] = part.value;
            continue;
          }
          const name = fieldFor(part.fieldname);
          if (!name) {
            part.file.resume();
            throw badRequest('uploadFieldUnknown', { field: part.fieldname });
          }
          if (!part.filename) {
            // an empty file input of a form: nothing chosen, the field stays as it is
            part.file.resume();
            continue;
          }
          await mayUpload(user, body).catch((e: unknown) => {
            part.file.resume();
            throw e;
          });
          const file = await uploads.store(user, part, kindOf(def.fields[name]!), req.lang);
          uploaded.push(file);
          body[name] = file.link;
        }
      } catch (e) {
        brokenMultipart(e);
      }
      return body;
    },
  };
}
