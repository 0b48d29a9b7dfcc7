package dev.sluice.sampledata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.SluiceException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleDataInstallerTest {

    @TempDir
    Path home;

    @Test
    void tarballNamesFollowNpm() {
        assertThat(SampleDataInstaller.tarballName("vega-datasets@3.2.1")).isEqualTo("vega-datasets-3.2.1.tgz");
        assertThat(SampleDataInstaller.tarballName("@scope/pkg@1.0.0")).isEqualTo("scope-pkg-1.0.0.tgz");
        assertThatThrownBy(() -> SampleDataInstaller.tarballName("vega-datasets"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("pin a version");
    }

    @Test
    void aMissingNpmIsAClearError() {
        SampleDataSpec spec = SampleDataSpec.pinned(Map.of("SLUICE_NPM", "/no/such/npm"));
        assertThatThrownBy(() -> new SampleDataInstaller(spec, home, s -> { }).install())
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot run '/no/such/npm'")
                .hasMessageContaining("SLUICE_NPM");
    }

    @Test
    void thePinnedPackageComesFromTheProperties() {
        SampleDataSpec spec = SampleDataSpec.pinned(Map.of());
        assertThat(spec.packageSpec()).isEqualTo("vega-datasets@3.2.1");
        assertThat(spec.sha256()).isEqualTo("6f72fda460a9863fae5fcb32f85bcd49e1761fdea6dc6cf9f4962472881cc5a3");
    }
}
