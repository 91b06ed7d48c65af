/** The web app's upload rules (web/src/file-types.ts): the type a file is declared as, and its size for people. */
import { declare, declaredType, sizeText } from '../../web/src/file-types';

const file = (name: string, type: string, bytes = 3) => new File([new Uint8Array(bytes)], name, { type });

test('a type the service reads is declared as it is', () => {
  expect(declaredType(file('notes.txt', 'text/plain'))).toBe('text/plain');
  expect(declaredType(file('ledger.csv', 'text/csv'))).toBe('text/csv');
  expect(declaredType(file('letter.pdf', 'application/pdf'))).toBe('application/pdf');
});

test('no type, or an odd one, is declared generic: the service decides by the extension (and says why it refuses one)', () => {
  expect(declaredType(file('notes.md', ''))).toBe('application/octet-stream');
  expect(declaredType(file('ledger.csv', 'application/vnd.ms-excel'))).toBe('application/octet-stream');
  expect(declaredType(file('photo.png', 'image/png'))).toBe('application/octet-stream');
});

test('a file is declared by its name, type and size', () => {
  expect(declare(file('notes.txt', 'text/plain', 12))).toEqual({ file_name: 'notes.txt', content_type: 'text/plain', size_bytes: 12 });
});

test('sizes for people', () => {
  expect(sizeText(1)).toBe('1 byte');
  expect(sizeText(999)).toBe('999 bytes');
  expect(sizeText(1_500)).toBe('1.5 kB');
  expect(sizeText(48_000)).toBe('48 kB');
  expect(sizeText(2_400_000)).toBe('2.4 MB');
});
