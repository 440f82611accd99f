/**
 * What in a conversation is talk about the visit rather than the patient: greetings and small
 * talk, backchannels, dictation commands to the recording assistant ("hey Dragon, show me the
 * vital signs"), narration of the visit ("let's move on to the plan", "I'm going to examine you"),
 * and the openers and tag questions around a statement ("okay, so ...", "..., okay?").
 */
import { trimSpokenEnds } from '../clinical-language/conversation.js';

// Discourse markers and fillers that open a spoken sentence.
const OPENERS =
  /^(?:(?:so|and|but|well|okay|ok|alright|all right|now|yeah|yes|right|um|uh|oh|also|then|anyway|basically|actually|great|good|perfect|hey|listen|look|again|lastly|finally|first of all|first|next|all in all|you know|i mean|in any case|at this point|at this time|for now|that said|sure|mm-hmm|hmm|i (?:don't|do not) know(?=,|\s+(?:every|sometimes|like|maybe|just|but|it's|i'm|i've|i|it)\b))\b[\s,]*)+/i;
// Tag questions and check-ins that close a spoken sentence.
// A single word closes as a tag only after a comma or as a question ("..., okay?"): "the knee on the
// right" and "your lungs sound okay" keep their last word, and "look" is no "lo" + "ok".
const CLOSERS =
  /(?:[,;]?\s*\b(?:does that sound (?:good|okay|ok|fair|reasonable|like a plan)|sounds? good|is that (?:okay|ok|alright|all right|fair)|how does that sound|fair enough)|[,;]\s*(?:okay|ok|all right|alright|right|you know|yeah|correct|deal)|\s\b(?:okay|ok|all right|alright|right|yeah|correct)(?=\s*\?))\s*[?.!]*\s*$/i;

/** Removes openers and a closing tag question; keeps every clinical word. */
export function stripTalk(sentence: string): string {
  return trimSpokenEnds(sentence, OPENERS, CLOSERS);
}

const SMALL_TALK =
  /^(hi|hello|hey|good (morning|afternoon|evening)|how are you|how's it going|nice to (see|meet)|thank(s| you)|you're welcome|bye|goodbye|take care|have a (good|great|nice)|okay|ok|all right|alright|sure|yes|yeah|yep|no|nope|right|great|good|perfect|sounds good|wonderful|awesome|mm|mm-hmm|uh|um|i see|got it|exactly|absolutely|of course|definitely|correct|fine|cool|wow|oh)\b[\s,.!?]*$/i;
/** Words addressed to the recording assistant, or about the recording, never to the patient. */
const DICTATION = /\b(hey,? dragon|dragon,|hey,? dax|\bdax\b|hey computer|show me the|pull up (?:the|his|her|my)|finalize the note|end of (?:the )?(?:note|recording)|i'm going to document|let me document|the nurse told you|new paragraph|period\.?$|scratch that|insert (?:the )?(?:normal )?(?:exam|template))/i;
/** The clinician announcing what happens next in the visit. */
const NARRATION =
  /^(?:(?:i(?:'m| am)? (?:going to|gonna|want to|wanna|would like to|'d like to|will|'ll)|let me|let's|we(?:'re| are)? (?:going to|gonna|will|'ll)|i just want to|i need to)\s+(?:go ahead and\s+|just\s+|quickly\s+|now\s+)?(?:do (?:a |an |your |the )?(?:quick |brief |full )?(?:physical )?exam|examine|take a (?:look|listen)|look at|listen to|feel|press on|check (?:you|your) (?:out|over)|move on|go over|talk about|review|switch gears|get (?:started|to)|start (?:by|with)|have you (?:lie|sit|stand|walk)|see how|go ahead|jump|touch on|chat|summarize|tell (?:dax|dragon)))\b/i;
const EXAM_NARRATION = /\b(?:(?:do|does) (?:this|that) hurt|how about (?:here|this|that)|push (?:against|back)|squeeze my|follow my finger|take a deep breath|breathe (?:in|out)|lie back|sit up|any pain (?:here|there|when i))\b/i;

/** True for a greeting, a backchannel or another sentence that says nothing about the patient. */
export function isSmallTalk(text: string): boolean {
  return SMALL_TALK.test(text.trim());
}

/** True for a command to the dictation assistant or talk about the recording. */
export function isDictationCommand(text: string): boolean {
  return DICTATION.test(text);
}

/** True for the clinician narrating the visit or instructing during the exam ("take a deep breath"). */
export function isNarration(text: string): boolean {
  const t = stripTalk(text);
  return NARRATION.test(t) || EXAM_NARRATION.test(t);
}
