import { inlineText, parseMarkdown } from './markdown.js';

/** What every page carries: who the note is about (a page may be printed or faxed alone) and, on a draft, PRELIMINARY. */
export interface PdfFrame {
  header: string;
  preliminary: boolean;
}

/**
 * The note as a PDF (A4, Helvetica), headings bold, lists indented. jsPDF is loaded on demand so
 * the interface's first load stays small. The standard PDF fonts cover Latin-1 only; other
 * characters are replaced rather than dropped silently. With a frame, each page starts with the
 * patient line and ends with "Page n of N", and a draft has a PRELIMINARY watermark on every page.
 */
export async function noteToPdf(markdown: string, title: string, frame?: PdfFrame): Promise<Uint8Array> {
  const { jsPDF, GState } = await import('jspdf');
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  doc.setProperties({ title, creator: 'Clindoc' });
  const margin = frame ? 72 : 56;
  const width = doc.internal.pageSize.getWidth() - margin * 2;
  const bottom = doc.internal.pageSize.getHeight() - margin;
  let y = margin;
  const latin1 = (s: string): string => s.replace(/[^\x00-\xff]/g, '?');
  const write = (text: string, size: number, bold: boolean, indent = 0, gapAfter = 6): void => {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    doc.setFontSize(size);
    const lines = doc.splitTextToSize(latin1(text), width - indent) as string[];
    const lineHeight = size * 1.3;
    for (const line of lines) {
      if (y + lineHeight > bottom) {
        doc.addPage();
        y = margin;
      }
      doc.text(line, margin + indent, y + size);
      y += lineHeight;
    }
    y += gapAfter;
  };
  write(title, 16, true, 0, 10);
  for (const b of parseMarkdown(markdown)) {
    if (b.kind === 'heading') write(inlineText(b.inlines), b.level <= 2 ? 13 : 11, true, 0, 4);
    else if (b.kind === 'paragraph') write(inlineText(b.inlines), 10.5, false);
    else if (b.kind === 'list') {
      b.items.forEach((it, i) => write(`${b.ordered ? `${i + 1}.` : '-'} ${inlineText(it)}`, 10.5, false, 14, 2));
      y += 4;
    } else {
      doc.setDrawColor(180);
      doc.line(margin, y, margin + width, y);
      y += 10;
    }
  }
  if (frame) drawFrame(doc, frame, latin1, GState);
  return new Uint8Array(doc.output('arraybuffer'));
}

type Doc = InstanceType<(typeof import('jspdf'))['jsPDF']>;

/** Drawn once the pages exist, so each page knows the page count. */
function drawFrame(doc: Doc, frame: PdfFrame, latin1: (s: string) => string, GState: (typeof import('jspdf'))['GState']): void {
  const pages = doc.getNumberOfPages();
  const w = doc.internal.pageSize.getWidth();
  const h = doc.internal.pageSize.getHeight();
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    if (frame.preliminary) {
      // Light and behind the reading line of sight, but on every page: a draft printed page by page still says so.
      doc.saveGraphicsState();
      doc.setGState(new GState({ opacity: 0.12 }));
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(72);
      doc.setTextColor(200, 0, 0);
      doc.text('PRELIMINARY', w / 2, h / 2, { align: 'center', baseline: 'middle', angle: 45 });
      doc.restoreGraphicsState();
    }
    doc.setTextColor(60);
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(9);
    doc.text(latin1(frame.header), 56, 32, { maxWidth: w - 112 });
    if (frame.preliminary) doc.text('PRELIMINARY: not signed', 56, 47);
    doc.setFont('helvetica', 'normal');
    doc.text(`Page ${p} of ${pages}`, w - 56, h - 30, { align: 'right' });
    doc.setDrawColor(180);
    doc.line(56, 54, w - 56, 54);
    doc.setTextColor(0);
  }
}
