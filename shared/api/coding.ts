import { Type } from '@sinclair/typebox';

/**
 * Wire schemas of coding analysis (`POST /v1/coding/analyze`). Decisions the contract leaves
 * open are written into the descriptions, which the OpenAPI document publishes.
 */

export const CodingAnalyzeBody = Type.Object(
  {
    text: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Clinical text to code (a note, an assessment, a sentence). At most 200,000 characters: longer texts answer 413. ' +
          'Evidence offsets count Unicode code points of this text, end exclusive.',
      }),
    ),
    noteId: Type.Optional(
      Type.String({
        minLength: 1, maxLength: 200,
        description:
          'Id of a stored note of this account. Decision: coding runs synchronously on the finished note ' +
          '(`payload.markdown`), because the embedded coder answers in milliseconds; no job and no webhook event. ' +
          'A note still pending or processing, or failed, answers 409 (retry once GET /v1/notes/{noteId} shows STATUS_DONE); ' +
          "another account's note answers 404.",
      }),
    ),
    transcript: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'A visit conversation (`[doctor] ...`, `Doctor: ...`, or untagged), coded before any note exists: the encounter understanding reads it once ' +
          '(problems with certainty, status, subject and side) and only its confirmed, current problems of the patient are coded. At most 200,000 characters. ' +
          'Evidence offsets count code points of this transcript. No CPT level (that needs a note).',
      }),
    ),
    visitId: Type.Optional(
      Type.String({
        minLength: 1, maxLength: 200,
        description: "Id of a visit of this account: its transcript is coded as `transcript` is. A visit without a transcript answers 409; another account's visit 404.",
      }),
    ),
  },
  { description: 'Exactly one of `text`, `noteId`, `transcript` and `visitId` (two or none is a 400). Unknown fields are ignored.' },
);

const Evidence = Type.Object({
  start_char: Type.Integer({ minimum: 0, description: 'Start, in Unicode code points of the analysed text.' }),
  end_char: Type.Integer({ minimum: 0, description: 'End (exclusive), in code points.' }),
  text: Type.String({ description: 'The analysed text between start_char and end_char, exactly.' }),
});

const EmReasoning = Type.Object(
  {
    patient: Type.String({ enum: ['new', 'established'] }),
    basis: Type.String({ enum: ['mdm', 'time'], description: 'Whether medical decision making or documented total time set the level (the higher wins).' }),
    mdm: Type.String({ enum: ['straightforward', 'low', 'moderate', 'high'], description: 'Two of the three elements below.' }),
    problems: Type.String({ enum: ['straightforward', 'low', 'moderate', 'high'] }),
    data: Type.String({ enum: ['straightforward', 'low', 'moderate', 'high'] }),
    risk: Type.String({ enum: ['straightforward', 'low', 'moderate', 'high'] }),
    minutes: Type.Optional(Type.Integer({ description: 'Total time documented, when it is.' })),
    findings: Type.Array(Type.String(), { description: 'What counted, in plain words.' }),
  },
  { description: 'How the office E/M level was reached (CPT suggestions only).' },
);

export const CodeSuggestion = Type.Object({
  system: Type.String({ enum: ['ICD-10-CM', 'CPT'] }),
  code: Type.String({ description: 'ICD-10-CM codes with the dot (`E11.9`), billable codes only; CPT: the code number.' }),
  display: Type.String({
    description:
      'ICD-10-CM: the long title of the edition. CPT: Clindoc\'s own short label; the AMA descriptor only when the operator supplies a licensed table (CLINDOC_CPT_TABLE).',
  }),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'Calibrated on the labelled set: higher means more often right.' }),
  evidence: Type.Array(Evidence, { description: 'Where the text supports the code.' }),
  rank: Type.Integer({ minimum: 1, description: '1 = the main reason for the visit; status, history and family codes follow the conditions.' }),
  edition: Type.Optional(Type.String({ description: 'ICD-10-CM edition the code comes from (e.g. FY2021).' })),
  role: Type.Optional(Type.String({ enum: ['current', 'status', 'history', 'family'], description: 'ICD-10-CM: what the code records.' })),
  related: Type.Optional(Type.Array(Type.String(), { description: 'Codes of this answer linked by the table\'s "use additional code", "code also" or "code first" notes.' })),
  why: Type.Optional(Type.Array(Type.String(), { description: 'The convention that chose the code, when one did (combination codes, history).' })),
  rule: Type.Optional(
    Type.String({
      description:
        'ICD-10-CM: the rule or convention that chose this code, in one line, e.g. "E11.65: diabetes with hyperglycemia: the note states the glucose or A1c high", ' +
        '"S83.411A: injury: ... matched to the injury titles by kind, site and side; 7th character A (initial encounter, active treatment)", ' +
        'or how the words led to it ("... is a term of the synonym index; the most specific code whose every title word the text supports").',
    }),
  ),
  reasoning: Type.Optional(EmReasoning),
  licensedDescriptor: Type.Optional(Type.Boolean()),
  source: Type.Optional(Type.String({ enum: ['embedded', 'model'], description: 'model: proposed by the configured language model and checked against the table, the text and the negation rules.' })),
});

export const CodingAnalysisView = Type.Object({
  codes: Type.Array(CodeSuggestion, { description: 'ICD-10-CM codes ranked, then the office E/M level when the text is a visit note. Empty when nothing is codable.' }),
  edition: Type.String({ description: 'ICD-10-CM edition of the table (the newest bundled or imported with `clindoc codes import`).' }),
  noteId: Type.Optional(Type.String({ description: 'Set when a stored note was analysed: offsets refer to its payload.markdown.' })),
  visitId: Type.Optional(Type.String({ description: "Set when a visit was analysed: offsets refer to the visit's transcript." })),
  setAside: Type.Integer({ minimum: 0, description: 'Findings the text negates, rules out or leaves uncertain, which were therefore not coded.' }),
});
