/**
 * The page a link that cannot be read opens to: what went wrong, in the codec's words ("this link
 * could not be read: …", shown as text, never as HTML), and the way back to the default lab. No
 * lab is built from such a link.
 */
import './share.css';

export function LinkErrorPage({ message, homeHref }: { message: string; homeHref: string }) {
  return (
    <main className="link-error" aria-labelledby="link-error-title">
      <h1 id="link-error-title">This link could not be read</h1>
      <p className="link-error-reason" data-testid="link-error">
        {message.charAt(0).toUpperCase() + message.slice(1)}
        {message.endsWith('.') ? '' : '.'}
      </p>
      <p>
        Nothing from the link was run. It may have been cut short when it was copied, or made by a newer
        version of the lab.
      </p>
      <p>
        <a className="link-error-home" href={homeHref}>
          Open the default lab
        </a>
      </p>
    </main>
  );
}
