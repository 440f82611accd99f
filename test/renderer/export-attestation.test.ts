/**
 * Exports that attest (issue 27.4): Markdown, plain text (also what the clipboard gets) and the PDF
 * carry the patient, the encounter date, the author, PRELIMINARY on a draft or "Electronically
 * signed by NAME on DATE TIME ZONE" once signed, each addendum with its own signature, the accepted
 * codes, and local times with the zone. The PDF is checked by reading its text back with pdf.js,
 * page by page, as a receiving clinic's software would.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { attestedMarkdown, attestedPdfMarkdown, attestedPlainText, localTime, pdfFrame, type AttestedNote } from '../../shared/export/attestation.js';
import { noteToPdf } from '../../shared/export/pdf.js';

const fonts = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts/');

/** The text of each page, items joined by spaces. */
async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: bytes, standardFontDataUrl: fonts }).promise;
  const pages: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    pages.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' ').replace(/\s+/g, ' '));
  }
  await doc.destroy();
  return pages;
}

// Long enough for three A4 pages, so "every page" means something.
const PLAN = Array.from({ length: 90 }, (_, i) => `- Plan item ${i + 1}: continue metformin 500 mg twice daily and review in clinic.`).join('\n');
const NOTE = `## Assessment\nType 2 diabetes, well controlled.\n\n## Plan\n${PLAN}\n`;
const SIGNED_AT = Date.UTC(2026, 10, 21, 14, 5); // 09:05 in New York (EST)
const BASE: AttestedNote = {
  markdown: NOTE,
  patient: { name: 'Ana Test', dateOfBirth: '1980-02-03' },
  encounterDate: '2026-11-20',
  signature: { status: 'draft' },
  codes: [{ system: 'ICD-10-CM', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' }],
  author: 'Dr. Ana Lopez',
  timeZone: 'America/New_York',
};
const SIGNED: AttestedNote = {
  ...BASE,
  signature: { status: 'amended', signedBy: 'Dr. Ana Lopez', signedAt: SIGNED_AT },
  addenda: [{ text: 'HbA1c came back at 6.8%.', author: 'Dr. Ben Okafor', createdAt: Date.UTC(2026, 10, 22, 16, 40) }],
};

describe('local times', () => {
  it('are the zone\'s own time with its name, never UTC ISO', () => {
    expect(localTime(SIGNED_AT, 'America/New_York')).toBe('2026-11-21 09:05 EST');
    expect(localTime(SIGNED_AT, 'Europe/Berlin')).toBe('2026-11-21 15:05 GMT+1');
    expect(localTime(Date.UTC(2026, 6, 1, 0, 30), 'America/New_York')).toBe('2026-06-30 20:30 EDT');
  });
});

describe('Markdown and plain text', () => {
  it('a draft says PRELIMINARY and carries patient, encounter, author and codes', () => {
    const md = attestedMarkdown(BASE);
    expect(md).toContain('**Patient:** Ana Test\n**Date of birth:** 1980-02-03\n**Encounter date:** 2026-11-20\n**Author:** Dr. Ana Lopez\n**Status:** PRELIMINARY: not signed');
    expect(md).toContain('**PRELIMINARY: not signed.**');
    expect(md).not.toContain('Electronically signed');
    expect(md).toContain('## Accepted codes\n\n- E11.9 Type 2 diabetes mellitus without complications (ICD-10-CM)');
    const text = attestedPlainText(BASE);
    expect(text.split('\n').slice(0, 8)).toEqual([
      'CLINICAL NOTE', '', 'Patient: Ana Test', 'Date of birth: 1980-02-03', 'Encounter date: 2026-11-20', 'Author: Dr. Ana Lopez', 'Status: PRELIMINARY: not signed', '',
    ]);
    expect(text.endsWith('PRELIMINARY: not signed.\n\nCODES\nE11.9 Type 2 diabetes mellitus without complications\n')).toBe(true);
  });

  it('a signed, amended note has the signature line, then each addendum with its own signature, in local time', () => {
    const md = attestedMarkdown(SIGNED);
    expect(md).toContain('**Status:** Signed, amended');
    const sig = md.indexOf('**Electronically signed by Dr. Ana Lopez on 2026-11-21 09:05 EST**');
    const addendum = md.indexOf('## Addendum, 2026-11-22 11:40 EST\n\nHbA1c came back at 6.8%.\n\n**Addendum electronically signed by Dr. Ben Okafor on 2026-11-22 11:40 EST**');
    expect(sig).toBeGreaterThan(md.indexOf('Plan item 90'));
    expect(addendum).toBeGreaterThan(sig);
    expect(md).not.toContain('PRELIMINARY');
    expect(md).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
    const text = attestedPlainText(SIGNED);
    expect(text).toContain('\nElectronically signed by Dr. Ana Lopez on 2026-11-21 09:05 EST\n');
    expect(text).toContain('\nADDENDUM, 2026-11-22 11:40 EST\n\nHbA1c came back at 6.8%.\n\nAddendum electronically signed by Dr. Ben Okafor on 2026-11-22 11:40 EST\n');
  });

  it('says what is missing instead of leaving the line out', () => {
    const md = attestedMarkdown({ markdown: 'Seen today.', signature: { status: 'draft' } });
    expect(md).toContain('**Patient:** name not given\n**Date of birth:** not given\n**Encounter date:** not given\n**Author:** not given');
  });
});

describe('PDF', () => {
  it('a draft: patient and encounter on every page, PRELIMINARY on every page, codes, no signature', async () => {
    const pages = await pdfPages(await noteToPdf(attestedPdfMarkdown(BASE), 'Clinical note', pdfFrame(BASE)));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => {
      expect(page).toContain('Patient: Ana Test · Date of birth: 1980-02-03 · Encounter: 2026-11-20');
      expect(page).toContain('PRELIMINARY');
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const all = pages.join('\n');
    expect(all).toContain('Author: Dr. Ana Lopez');
    expect(all).toContain('E11.9 Type 2 diabetes mellitus without complications');
    expect(all).not.toContain('Electronically signed');
  });

  it('a signed, amended note: the signature and the addendum\'s signature in local time, no PRELIMINARY anywhere', async () => {
    const pages = await pdfPages(await noteToPdf(attestedPdfMarkdown(SIGNED), 'Clinical note', pdfFrame(SIGNED)));
    for (const page of pages) expect(page).toContain('Patient: Ana Test · Date of birth: 1980-02-03 · Encounter: 2026-11-20');
    const all = pages.join('\n');
    expect(all).not.toContain('PRELIMINARY');
    expect(all).toContain('Electronically signed by Dr. Ana Lopez on 2026-11-21 09:05 EST');
    expect(all).toContain('Addendum electronically signed by Dr. Ben Okafor on 2026-11-22 11:40 EST');
    expect(all).toContain('Status: Signed, amended');
  });
});
