package dev.sluice.app;

import dev.sluice.app.cli.SluiceCommand;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The {@code sluice} process: a Spring Boot application whose command line is picocli
 * ({@link SluiceCommand}). Exits with the command's exit code.
 */
@SpringBootApplication
public class SluiceApplication implements CommandLineRunner, ExitCodeGenerator {

    private int exitCode;

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SluiceApplication.class);
        var context = app.run(args);
        if (!context.isActive()) {
            return; // stopped by a signal (e.g. SIGTERM to `sluice serve`): the JVM is already shutting down
        }
        System.exit(SpringApplication.exit(context));
    }

    @Override
    public void run(String... args) {
        exitCode = SluiceCommand.execute(args);
    }

    @Override
    public int getExitCode() {
        return exitCode;
    }
}
