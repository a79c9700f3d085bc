/** Opaque list cursors: which list, for which key, after which id. Anything else answers 422. */
export interface CursorPosition {
  list: string;
  keyId: string;
  after: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.list, position.keyId, position.after])).toString('base64url');
}

/** The position a cursor names, or undefined when it was not issued for this list and key. */
export function decodeCursor(cursor: string, list: string, keyId: string): string | undefined {
  try {
    const [cursorList, cursorKey, after] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    return cursorList === list && cursorKey === keyId && typeof after === 'string' ? after : undefined;
  } catch {
    return undefined;
  }
}
