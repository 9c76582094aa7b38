import { deflateSync } from 'node:zlib';

/** A one-page PDF with the text "Invoice total 42 EUR", written by hand (xref offsets computed). */
export function tinyPdf(text = 'Invoice total 42 EUR'): Uint8Array {
  return pdfOf(`BT /F1 12 Tf 20 100 Td (${text}) Tj ET`);
}

/**
 * The tester's PDF bomb: one FlateDecode content stream that inflates to about
 * `inflatedBytes` (the text operators, then spaces: 100 MB deflate to about 100 KB).
 */
export function pdfInflatingTo(inflatedBytes: number): Uint8Array {
  const ops = 'BT /F1 12 Tf 20 100 Td (Invoice total 42 EUR) Tj ET';
  return pdfOf(ops + ' '.repeat(Math.max(0, inflatedBytes - ops.length)), { deflate: true });
}

function pdfOf(stream: string, { deflate = false } = {}): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const body = deflate ? deflateSync(stream, { level: 9 }).toString('latin1') : stream;
  objects[3] = `<< /Length ${body.length}${deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n${body}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // A deflated stream is bytes, one latin1 character each; plain text is written as UTF-8.
  return deflate ? new Uint8Array(Buffer.from(out, 'latin1')) : new TextEncoder().encode(out);
}
