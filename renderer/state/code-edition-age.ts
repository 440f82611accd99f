/**
 * Whether the ICD-10-CM edition in use has been replaced. CMS publishes one edition per US federal
 * fiscal year: FY N is in force from 1 October of year N-1 to 30 September of year N, so from
 * 1 October of year N a newer edition (FY N+1) exists and claims for later services use it.
 */

/** Where CMS publishes the yearly ICD-10-CM files (order file and tabular list). */
export const CMS_ICD10_PAGE = 'https://www.cms.gov/medicare/coding-billing/icd-10-codes';

export interface EditionAge {
  /** The fiscal year of the edition in use (FY2021 -> 2021). */
  edition: number;
  /** The fiscal year in force on `today`. */
  current: number;
  /** The day the edition in use stopped being the one in force: 1 October of its own year (local date). */
  replacedOn: Date;
}

/** The fiscal year an edition label names ("FY2021", "fy 2025", "2024"); undefined for a label without one. */
export function editionYear(label: string): number | undefined {
  const m = /^(?:FY\s*)?(\d{4})\b/i.exec(label.trim());
  return m ? Number(m[1]) : undefined;
}

/** The ICD-10-CM fiscal year in force on a day: from 1 October the next year's edition. */
export function fiscalYearOf(day: Date): number {
  return day.getMonth() >= 9 ? day.getFullYear() + 1 : day.getFullYear();
}

/** How far behind the edition in use is on `today`; undefined while it is the one in force (or its label names no year). */
export function editionAge(label: string, today: Date): EditionAge | undefined {
  const edition = editionYear(label);
  if (edition === undefined) return undefined;
  const current = fiscalYearOf(today);
  return current > edition ? { edition, current, replacedOn: new Date(edition, 9, 1) } : undefined;
}
