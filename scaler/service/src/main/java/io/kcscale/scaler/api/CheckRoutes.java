package io.kcscale.scaler.api;

import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.service.Scaler;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /api/v1/connectors/{name}/checks}: every scaling check's finding for one sink connector,
 * judged against its current tasks.max; {@code sampleRecords} and {@code sampleSeconds} bound the key sample.
 */
final class CheckRoutes implements Routes {

    static final String PATH = "/api/v1/connectors/{name}/checks";
    static final List<String> PARAMETERS = List.of("sampleRecords", "sampleSeconds");

    private final Optional<Scaler> scaler;

    CheckRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(PATH, routes.check(call -> {
            Scaler s = ConnectorRoutes.connected(scaler);
            Map<String, String> query = QueryParameters.parse(call.rawQuery(), PARAMETERS);
            SampleBudget budget = SampleBudget.parse(query.get("sampleRecords"), query.get("sampleSeconds"));
            return s.checks(call.pathParameter("name"), budget);
        }));
    }
}
