package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code sluice} launcher runs the packaged Spring Boot jar: exit codes pass through. */
class LauncherIT {

    @TempDir
    Path home;

    private record Result(int code, String output) {
    }

    private Result launch(String... args) throws IOException, InterruptedException {
        Path root = TestHome.projectRoot();
        String[] cmd = new String[args.length + 2];
        cmd[0] = "bash";
        cmd[1] = root.resolve("sluice").toString();
        System.arraycopy(args, 0, cmd, 2, args.length);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        pb.environment().put("SLUICE_HOME", home.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }

    @Test
    void validateThroughTheJar() throws Exception {
        Result ok = launch("validate", "flights");
        assertThat(ok.code()).as(ok.output()).isZero();
        assertThat(ok.output()).contains("flights.yaml: valid");
        Result missing = launch("run", "flights", "--partition", "2001-01-01");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.output()).contains("sluice sample-data").doesNotContain("\tat ");
        Result badDate = launch("run", "flights", "--partition", "2001-02-30");
        assertThat(badDate.code()).isEqualTo(2);
        assertThat(badDate.output()).contains("--partition");
    }
}
