package io.kcscale.tests.observe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition (a JMX exporter's or the scaler's /metrics), scraped once. */
record ExpositionText(URI url, List<Sample> samples) {

    record Sample(String name, Map<String, String> labels) {}

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static ExpositionText scrape(URI url) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(url)
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + url + " -> " + r.statusCode());
            }
            List<Sample> samples = new ArrayList<>();
            for (String line : r.body().split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int brace = line.indexOf('{');
                int space = line.indexOf(' ');
                boolean labelled = brace >= 0 && brace < space;
                Map<String, String> labels = new LinkedHashMap<>();
                if (labelled) {
                    Matcher m = LABEL.matcher(line.substring(brace, line.lastIndexOf('}') + 1));
                    while (m.find()) {
                        labels.put(m.group(1), m.group(2));
                    }
                }
                samples.add(new Sample(line.substring(0, labelled ? brace : space), labels));
            }
            return new ExpositionText(url, samples);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scrape " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
