import { REVIEW_SCRIPT } from './review-script';

const STYLE = `#review { border: 1px solid #c9d3ea; border-radius: 6px; padding: .6em; margin: 1em 0; }
#review-status[data-state="error"] { color: #b3261e; } #review-list .note { white-space: pre-wrap; color: #3d4556; } #review textarea { display: block; margin: .4em 0; }`;

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The served explorer page with the review panel (`verity view` only; the offline explorer.html shows
 * no reviews). The page carries the token its writes send: it is served only on the default loopback
 * address or to requests that already hold the token.
 */
export function withReviewPanel(page: string, token: string): string {
  const panel = `<section id="review"><h2>Review</h2>
<p>Reviewer <input id="reviewer-name" autocomplete="name" placeholder="your name"> <button id="review-start">start the review queue (disagreements first)</button> <span id="review-status" data-state="idle"></span></p>
<p class="note">Keys: j / k next / previous · r / w / u verdict right / wrong / unmarked · d dispute the gold label · n note · s save · o transcript · Esc leaves a text field</p>
<div id="review-item"></div></section>`;
  // Function replacers: the script's text holds `$` sequences a replacement string would expand.
  return page
    .replace('</head>', () => `<meta name="verity-token" content="${attribute(token)}"><style>${STYLE}</style></head>`)
    .replace('<div id="transcript" hidden></div>', () => `${panel}\n<div id="transcript" hidden></div>`)
    .replace('</body>', () => `<script>${REVIEW_SCRIPT}</script>\n</body>`);
}
