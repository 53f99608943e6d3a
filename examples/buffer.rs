use std::collections::HashMap;
use std::fs;
use std::process::Command;

pub struct Cache {
    entries: HashMap<String, Vec<u8>>,
}

impl Cache {
    pub fn load(path: &str) -> Cache {
        let text = fs::read_to_string(path).unwrap();
        let mut entries = HashMap::new();
        for line in text.lines() {
            let (key, value) = line.split_once('=').expect("bad line");
            entries.insert(key.to_string(), value.as_bytes().to_vec());
        }
        Cache { entries }
    }

    pub fn first_byte(&self, key: &str) -> u8 {
        let data = self.entries.get(key).unwrap();
        let ptr = data.as_ptr();
        unsafe { *ptr.add(data.len()) }
    }

    pub fn purge(&self, dir: &str) {
        let cmd = format!("rm -rf {}/*", dir);
        Command::new("sh").arg("-c").arg(cmd).status().unwrap();
    }
}
