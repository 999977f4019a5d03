package io.kcscale.scaler.api;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/** Jetty's own refusals (a malformed request, headers too large) in the API's JSON error shape, for every method. */
final class JsonErrors extends ErrorHandler {

    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        String reason = message == null ? HttpStatus.getMessage(code) : message;
        String error = switch (code) {
            case HttpStatus.BAD_REQUEST_400 ->
                badUri(cause)
                        ? "the path is not a valid URI path: a % must start an escape such as"
                                + " %25, and %00 is refused"
                        : "the request is not valid HTTP/1.1: " + reason;
            case HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431 ->
                "the request line and headers are larger than " + ApiServer.HEADER_BYTES
                        + " bytes: send fewer or shorter headers";
            case HttpStatus.SERVICE_UNAVAILABLE_503 -> "the scaler is stopping: retry in a few seconds";
            default -> code < 500 ? "the request is not valid HTTP/1.1: " + reason : "internal error: " + reason;
        };
        Responses.send(response, callback, code, Responses.error(error, null));
    }

    /** Jetty refuses a request target it cannot parse (a broken escape, an encoded NUL) with the parser's exception as the cause. */
    private static boolean badUri(Throwable failure) {
        return failure instanceof HttpException && failure.getCause() instanceof IllegalArgumentException;
    }
}
