package io.kcscale.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/** Debian's Chromium driven through its chromedriver, headless and offline, in the 1280×800 window the web view is laid out for. */
final class HeadlessChrome implements AutoCloseable {

    private static final Path BROWSER = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    final ChromeDriver driver;

    HeadlessChrome() {
        assertTrue(Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER), BROWSER + " or " + DRIVER
                + " is missing: apt-get install -y chromium chromium-driver (./kcscale test does it as root)");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        ChromeOptions options = new ChromeOptions().setBinary(BROWSER.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--no-first-run", "--window-size=1280,800");
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        driver = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build(), options);
    }

    /** The console's errors since the last call: script errors, and requests that failed or answered an error status. */
    List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::toString).toList();
    }

    @Override
    public void close() {
        driver.quit();
    }
}
