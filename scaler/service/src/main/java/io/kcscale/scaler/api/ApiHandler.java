package io.kcscale.scaler.api;

import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.predict.LiveTaskPrediction;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request to the API: the {@link RequestGuard} refuses what another site's page could send (421, 403),
 * then the route and method decide (404, 405, an allowed origin's preflight), a body must be JSON (415), and the
 * endpoint answers. Every answer is JSON, errors included: 400 names the bad field, 404 and 405 say what exists,
 * a service call's refusal gets the status its reason maps to ({@link HttpStatuses}), and only a bug gives a 500.
 */
final class ApiHandler extends Handler.Abstract {

    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

    private final RequestGuard guard;
    private final RouteTable routes;

    ApiHandler(RequestGuard guard, RouteTable routes) {
        this.guard = guard;
        this.routes = routes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        String path = request.getHttpURI().getPath();
        try {
            Optional<String> crossOrigin = guard.admit(request);
            crossOrigin.ifPresent(origin -> {
                response.getHeaders().put("Access-Control-Allow-Origin", origin);
                response.getHeaders().put("Vary", "Origin");
            });
            RouteTable.Match route = routes.match(path).orElseThrow(() -> new ApiError(404, "no route " + path, null));
            Set<String> methods = route.methods().keySet();
            if (method.equals("OPTIONS") && crossOrigin.isPresent()) {
                preflight(response, methods);
                callback.succeeded();
                return true;
            }
            if (!methods.contains(method)) {
                response.getHeaders().put("Allow", String.join(", ", methods));
                throw new ApiError(
                        405, method + " is not allowed on " + path + "; allowed: " + String.join(", ", methods), null);
            }
            RequestGuard.requireJson(request);
            Object body =
                    answer(route.methods().get(method), new Call(request, route.parameters()), method + " " + path);
            Responses.send(response, callback, 200, body);
        } catch (ApiError e) {
            if (request.getLength() != 0) {
                // a refusal may leave the body unread, and Jetty then closes the connection after the answer
                // without saying so: a client that reuses it reads nothing. Said, it opens a new one.
                response.getHeaders().put("Connection", "close");
            }
            Responses.send(response, callback, e);
        } catch (IOException bodyCutOff) {
            // the client stopped sending, or trickled past the time limit: say so if it still reads, then close
            response.getHeaders().put("Connection", "close");
            Responses.send(
                    response,
                    callback,
                    new ApiError(
                            408,
                            "the request did not arrive whole within " + ApiServer.REQUEST_SECONDS
                                    + " seconds: send it at once",
                            null));
        }
        return true;
    }

    /** What an allowed other origin's page may send: the route's methods, with a token and a JSON body. */
    private static void preflight(Response response, Set<String> methods) {
        response.setStatus(204);
        response.getHeaders().put("Access-Control-Allow-Methods", String.join(", ", methods));
        response.getHeaders().put("Access-Control-Allow-Headers", "Authorization, Content-Type");
        response.getHeaders().put("Access-Control-Max-Age", "600");
    }

    private static Object answer(RouteTable.Endpoint endpoint, Call call, String route) throws IOException {
        try {
            return endpoint.handle(call);
        } catch (ApiError e) {
            throw e;
        } catch (InvalidInputException e) {
            throw new ApiError(400, e.describe(UnaryOperator.identity()), e.field());
        } catch (LiveTaskPrediction.UnknownCapacityException e) {
            throw new ApiError(422, e.getMessage(), "connector");
        } catch (ScalerException e) {
            throw HttpStatuses.of(e);
        } catch (RuntimeException e) {
            LOG.warn("{} failed", route, e);
            throw new ApiError(500, "internal error: " + e, null);
        }
    }
}
