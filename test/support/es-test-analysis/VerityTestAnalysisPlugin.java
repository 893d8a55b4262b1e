package verity.test;

import java.io.IOException;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.FilteringTokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.core.LowerCaseFilter;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;

/**
 * Stands in for Elasticsearch's analysis-common module, which the integ-test-zip distribution lacks:
 * the .security index (where API keys live) analyses e-mail fields with pattern_capture, lowercase,
 * unique and the uax_url_email tokenizer. Test support only; never installed outside test nodes.
 */
public class VerityTestAnalysisPlugin extends Plugin implements AnalysisPlugin {
  private static TokenFilterFactory filter(String name, java.util.function.UnaryOperator<TokenStream> create) {
    return new TokenFilterFactory() {
      public String name() { return name; }
      public TokenStream create(TokenStream input) { return create.apply(input); }
    };
  }

  /** Drops every token already seen in the stream (the `unique` filter without only_on_same_position). */
  private static final class UniqueFilter extends FilteringTokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final CharArraySet seen = new CharArraySet(8, false);
    UniqueFilter(TokenStream input) { super(input); }
    @Override protected boolean accept() {
      if (seen.contains(term.buffer(), 0, term.length())) return false;
      seen.add(term.toString());
      return true;
    }
    @Override public void reset() throws IOException { super.reset(); seen.clear(); }
  }

  @Override
  public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
    return Map.of(
      "pattern_capture", (indexSettings, env, name, settings) -> {
        Pattern[] patterns = settings.getAsList("patterns").stream().map(Pattern::compile).toArray(Pattern[]::new);
        boolean preserveOriginal = settings.getAsBoolean("preserve_original", true);
        return filter(name, input -> new PatternCaptureGroupTokenFilter(input, preserveOriginal, patterns));
      },
      "lowercase", (indexSettings, env, name, settings) -> filter(name, LowerCaseFilter::new),
      "unique", (indexSettings, env, name, settings) -> filter(name, UniqueFilter::new));
  }

  @Override
  public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
    return Map.of("uax_url_email", (indexSettings, env, name, settings) -> TokenizerFactory.newFactory(name, UAX29URLEmailTokenizer::new));
  }
}
