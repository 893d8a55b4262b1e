/** A file uploaded to (or written by) the simulator. */
export interface SimFile {
  id: string;
  filename: string;
  purpose: 'batch' | 'batch_output';
  createdAt: number;
  content: string;
}

/** The files endpoint's memory. */
export class FileStore {
  private files = new Map<string, SimFile>();
  private nextId = 1;

  add(filename: string, purpose: SimFile['purpose'], content: string): SimFile {
    const file: SimFile = { id: `file-sim${String(this.nextId++).padStart(6, '0')}`, filename, purpose, createdAt: Math.floor(Date.now() / 1000), content };
    this.files.set(file.id, file);
    return file;
  }

  get(id: string): SimFile | undefined {
    return this.files.get(id);
  }
}

/** A file as OpenAI's API shows it (FileObject). */
export function fileObject(file: SimFile) {
  return {
    id: file.id,
    object: 'file',
    bytes: Buffer.byteLength(file.content),
    created_at: file.createdAt,
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
  };
}
