package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.ComposeFile;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * grafana/: the dashboards type-check against @grafana/schema (tsc --strict, see grafana/typecheck/),
 * and the provisioning fits the compose stack: every datasource a dashboard names is provisioned and
 * points at a compose service, and Grafana finds the dashboards where compose mounts them.
 */
class GrafanaDashboardsTest {

    private static final Path GRAFANA = RepositoryFiles.home().resolve("grafana");

    @Test
    void dashboardsTypeCheckAgainstGrafanasSchema() {
        assertTrue(
                Files.isDirectory(GRAFANA.resolve("node_modules/@grafana/schema")),
                "run `npm install` in grafana/ (./kcscale test does)");
        Commands.runOk(GRAFANA, Duration.ofMinutes(3), List.of("npm", "run", "--silent", "typecheck"));
    }

    @Test
    void provisioningFitsTheComposeStack() throws IOException {
        JsonNode services = ComposeFile.normalized().path("services");
        Set<String> uids = new HashSet<>();
        for (JsonNode source : RepositoryFiles.yaml(GRAFANA.resolve("provisioning/datasources/prometheus.yml"))
                .path("datasources")) {
            uids.add(source.path("uid").asText());
            String host = URI.create(source.path("url").asText()).getHost();
            assertTrue(
                    services.has(host),
                    "datasource " + source.path("name").asText() + " points at " + host + ", no compose service");
        }
        try (Stream<Path> files = Files.list(GRAFANA.resolve("dashboards"))) {
            for (Path dashboard : files.toList()) {
                for (JsonNode ref : RepositoryFiles.json(dashboard).findValues("datasource")) {
                    assertTrue(
                            uids.contains(ref.path("uid").asText()),
                            dashboard.getFileName() + " uses datasource " + ref + ", not provisioned");
                }
            }
        }
        String provided = RepositoryFiles.yaml(GRAFANA.resolve("provisioning/dashboards/kcscale.yml"))
                .path("providers")
                .get(0)
                .path("options")
                .path("path")
                .asText();
        String mounted = null;
        for (JsonNode volume : services.path("grafana").path("volumes")) {
            if (Path.of(volume.path("source").asText()).equals(GRAFANA.resolve("dashboards"))) {
                mounted = volume.path("target").asText();
            }
        }
        assertEquals(mounted, provided, "the dashboards provider reads where compose mounts grafana/dashboards");
        String home = services.path("grafana")
                .path("environment")
                .path("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH")
                .asText();
        assertTrue(
                home.startsWith(mounted + "/")
                        && Files.exists(GRAFANA.resolve("dashboards").resolve(home.substring(mounted.length() + 1))),
                "the home dashboard " + home + " is one of grafana/dashboards");
    }
}
