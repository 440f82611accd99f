/**
 * Layouts for the built-in SOAP note and for NoteTemplate objects.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import type { DetailLevel, NoteTemplate, Section } from '../../../../shared/note-template.js';
import { phrase } from './i18n.js';
import { section, type LayoutSection } from './layout.js';
import { targetOfHeading, type SectionKind } from './sections.js';

/** The built-in SOAP note: S/O/A/P with the clinical sub-sections clinicians expect. */
export function soapLayout(language: NoteLanguage, detail: DetailLevel): LayoutSection[] {
  const sub = (kind: SectionKind, format: 'prose' | 'list' = 'prose', hide = true): LayoutSection =>
    section({ id: kind, title: phrase(language, kind), target: kind, level: 3, format, detail, hideIfEmpty: hide });
  return [
    section({
      id: 'subjective', title: phrase(language, 'subjective'), target: 'subjective', level: 2, detail,
      children: [sub('chief_complaint'), sub('hpi', 'prose', false), sub('ros', 'list'), sub('pmh'), sub('surgical'), sub('medications', 'list'), sub('allergies'), sub('social'), sub('family')],
    }),
    section({
      id: 'objective', title: phrase(language, 'objective'), target: 'objective', level: 2, detail,
      children: [sub('vitals', 'list'), sub('exam', 'list'), sub('results')],
    }),
    section({ id: 'assessment', title: phrase(language, 'assessment'), target: 'assessment', level: 2, detail }),
    section({
      id: 'plan', title: phrase(language, 'plan'), target: 'plan', level: 2, format: 'list', detail,
      children: [sub('instructions', 'list')],
    }),
  ];
}

/** Turn a NoteTemplate object into a layout, honouring every per-section property. */
export function noteTemplateLayout(template: NoteTemplate, fallbackDetail: DetailLevel): LayoutSection[] {
  const convert = (s: Section, parentText: string): LayoutSection => {
    if (s.type === 'heading') {
      const p = s.properties;
      const heading = section({
        id: s.id, title: p.text, target: targetOfHeading(p.text), level: p.level,
        ...(p.bold !== undefined ? { bold: p.bold } : {}), ...(p.italic !== undefined ? { italic: p.italic } : {}),
        ...(p.hideIfEmpty !== undefined ? { hideIfEmpty: p.hideIfEmpty } : {}),
        detail: fallbackDetail,
      });
      heading.children = s.children.map((c) => convert(c, p.text));
      // A heading with content children shows only their content; its own target is the fallback.
      if (heading.children.length > 0) heading.target = 'unknown';
      return heading;
    }
    const p = s.properties;
    const describe = `${'label' in p && p.label ? p.label : ''} ${s.prompt} ${s.id}`;
    let target = targetOfHeading(describe);
    if (target === 'unknown') target = targetOfHeading(parentText);
    const common = {
      id: s.id, title: '', headingStyle: 'none' as const, target, detail: p.detail_level ?? fallbackDetail,
      plain: p.formatting_style === 'plain',
      ...(p.tone ? { tone: p.tone } : {}),
      ...(p.bold !== undefined ? { bold: p.bold } : {}), ...(p.italic !== undefined ? { italic: p.italic } : {}),
      ...(p.hideIfEmpty !== undefined ? { hideIfEmpty: p.hideIfEmpty } : {}),
      ...(p.emptyPlaceholder !== undefined ? { emptyPlaceholder: p.emptyPlaceholder } : {}),
    };
    if (s.type === 'list') {
      return section({
        ...common, format: 'list', listType: s.properties.list_type,
        ...(s.properties.max_items !== undefined ? { maxItems: s.properties.max_items } : {}),
        ...(s.properties.min_items !== undefined ? { minItems: s.properties.min_items } : {}),
      });
    }
    const t = s.properties;
    return section({
      ...common, format: 'prose', listType: t.list_type ?? 'bullet', asListItem: t.list_type !== undefined,
      ...(t.max_sentences !== undefined ? { maxItems: t.max_sentences } : {}),
      ...(t.min_sentences !== undefined ? { minItems: t.min_sentences } : {}),
      ...(t.label !== undefined ? { label: t.label } : {}),
      ...(t.bold_label !== undefined ? { boldLabel: t.bold_label } : {}),
      ...(t.italic_label !== undefined ? { italicLabel: t.italic_label } : {}),
    });
  };
  return template.sections.map((s) => convert(s, ''));
}
