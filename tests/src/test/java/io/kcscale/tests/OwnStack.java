package io.kcscale.tests;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks a test class that starts a stack of its own: the shared stack is stopped first, so two
 * stacks never compete for two cores and the figures such a test measures are its own stack's.
 * Such classes run after every class that shares the stack (their {@code @Order} is 19 or more).
 */
public final class OwnStack implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        SharedStack.release(context);
    }
}
